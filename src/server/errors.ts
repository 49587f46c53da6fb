import { ERROR_STATUS, type ErrorCode } from '../contracts/errors.ts';

/** What services throw (house style, habit 7): one handler turns it into HTTP. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  get httpStatus(): number {
    return ERROR_STATUS[this.code];
  }
}
