import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type EndpointDeclaration, pathOf, resultOf } from '../../contracts/endpoint.ts';
import type { ServerApiClient } from '../../contracts/web-context.ts';
import { forwardMultipart } from './forward-multipart.ts';

/**
 * The one API client as route loaders and actions use it: each call goes through the endpoint's own
 * Fastify route in process (`inject`), as this visitor (address, cookie, user agent), so a page's
 * form meets exactly the rules, limits and checks an API client meets. A cookie the endpoint sets
 * (sign-in, sign-out) is handed on to the visitor's answer.
 */
export function inProcessApi(app: FastifyInstance, visitor: FastifyRequest, reply: FastifyReply): ServerApiClient {
  const passOnCookies = (setCookie: string | string[] | number | undefined) => {
    if (setCookie === undefined || reply.raw.headersSent) return;
    for (const cookie of Array.isArray(setCookie) ? setCookie : [String(setCookie)])
      reply.raw.appendHeader('set-cookie', cookie);
  };
  return {
    async call(declaration: EndpointDeclaration, input: { params?: unknown; query?: unknown; body?: unknown } = {}) {
      if (typeof FormData !== 'undefined' && input.body instanceof FormData)
        throw new Error(`${declaration.path}: a page's form with files is sent on with forward(), as it arrives`);
      const answer = await app.inject({
        method: declaration.method,
        url: pathOf(declaration, input),
        ...(input.body === undefined ? {} : { payload: JSON.stringify(input.body) }),
        remoteAddress: visitor.ip,
        headers: {
          ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
          accept: 'application/json',
          ...(visitor.headers.cookie ? { cookie: visitor.headers.cookie } : {}),
          ...(visitor.headers['user-agent'] ? { 'user-agent': visitor.headers['user-agent'] } : {}),
        },
      });
      passOnCookies(answer.headers['set-cookie']);
      const retryAfter = answer.headers['retry-after'];
      return resultOf(answer.statusCode, parseJson(answer.body), retryAfter === undefined ? null : String(retryAfter));
    },
    async forward(declaration: EndpointDeclaration, input: { params?: unknown }, form: Request) {
      const answer = await forwardMultipart(app, visitor, pathOf(declaration, input), form);
      return { result: resultOf(answer.status, answer.body), fields: answer.fields };
    },
  } as ServerApiClient;
}

/** An answer that is not JSON (a crash page) counts as no body. */
function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}
