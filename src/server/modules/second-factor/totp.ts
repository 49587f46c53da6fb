import { generateSecret, generateURI, verify } from 'otplib';

/**
 * TOTP (RFC 6238) through otplib 13: SHA-1, 6 digits, 30-second steps, what every authenticator app
 * reads. A code is accepted one step either side of now (clock drift), and only for a step later
 * than the last one accepted (replay refusal: the caller stores the step).
 */
export const TOTP_PERIOD_SECONDS = 30;

/** A new secret: 20 random bytes (160 bits), base32. */
export const newTotpSecret = (): string => generateSecret();

/** Base32 (A–Z, 2–7, optional padding) of at least 16 bytes, which otplib requires (RFC 4226). */
export function isUsableTotpSecret(secret: string): boolean {
  const clean = secret.replace(/=+$/, '');
  return /^[A-Z2-7]+$/.test(clean) && Math.floor((clean.length * 5) / 8) >= 16;
}

export const normaliseTotpSecret = (secret: string) => secret.replace(/[\s-]/g, '').toUpperCase();

export function totpUri(input: { issuer: string; account: string; secret: string }): string {
  return generateURI({ issuer: input.issuer, label: input.account, secret: input.secret });
}

/** The QR code of the otpauth:// address as an SVG document, drawn on the server (no script, no image request). */
export async function totpQrSvg(uri: string): Promise<string> {
  // qrcode loads with the first enrolment (a start's cost otherwise; decision 101).
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The step the code was for, when it is right for a step after `afterStep`; null otherwise. */
export async function checkTotp(input: {
  secret: string;
  code: string;
  afterStep?: number | null;
}): Promise<number | null> {
  const result = await verify({
    secret: input.secret,
    token: input.code,
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(input.afterStep === null || input.afterStep === undefined ? {} : { afterTimeStep: input.afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
