import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type AnswerOf, type EndpointDeclaration } from '../../contracts/endpoint.ts';
import { ErrorBodySchema } from '../../contracts/errors.ts';
import type { Principal } from '../plugins/access.ts';
import type { z } from '../../contracts/zod.ts';

/** The response schemas of a declaration, errors included, as Fastify and OpenAPI read them. */
export function responseSchemas(declaration: EndpointDeclaration): Record<number, z.ZodType> {
  const responses: Record<number, z.ZodType> = { ...declaration.answers };
  for (const status of declaration.errors) responses[status] = declaration.errorBody ?? ErrorBodySchema;
  return responses;
}

/**
 * Registers a Fastify route from an endpoint's declaration (src/contracts/endpoint.ts): method, path,
 * access policy, schemas (validated on the way in, serialized and checked on the way out, published
 * in OpenAPI) come from there; the module adds only what it does.
 */
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type EndpointRequest<E extends EndpointDeclaration> = FastifyRequest<{
  Params: Output<E['params']>;
  Querystring: Output<E['query']>;
  Body: Output<E['body']>;
}>;

export type EndpointHandler<E extends EndpointDeclaration> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<AnswerOf<E> | FastifyReply | void> | AnswerOf<E> | FastifyReply;

/** What a few routes add beyond the declaration: hooks on their own answers. */
export type EndpointExtras = Pick<RouteOptions, 'onSend' | 'preHandler'>;

export function route<E extends EndpointDeclaration>(
  app: FastifyInstance,
  declaration: E,
  handler: EndpointHandler<E>,
  extras: EndpointExtras = {},
): void {
  const consumes =
    declaration.multipart === 'only'
      ? ['multipart/form-data']
      : declaration.multipart === 'also'
        ? ['application/json', 'multipart/form-data']
        : undefined;
  app.route({
    method: declaration.method,
    url: declaration.path,
    config: {
      access: declaration.access,
      declaration,
      ...(declaration.secondFactorEnrolment ? { secondFactorEnrolment: true } : {}),
    },
    ...(declaration.bodyLimit ? { bodyLimit: declaration.bodyLimit } : {}),
    schema: {
      tags: [...declaration.tags],
      summary: declaration.summary,
      ...(declaration.description || declaration.keyScopes
        ? { description: [declaration.description, keyScopesLine(declaration)].filter(Boolean).join('\n\n') }
        : {}),
      ...(declaration.hidden ? { hide: true } : {}),
      ...(consumes ? { consumes } : {}),
      ...(declaration.params ? { params: declaration.params } : {}),
      ...(declaration.query ? { querystring: declaration.query } : {}),
      // A multipart-only body is read by the handler as it arrives; a JSON one may be absent when a form comes instead.
      ...(declaration.body
        ? { body: declaration.multipart === 'also' ? declaration.body.nullish() : declaration.body }
        : {}),
      ...(declaration.stream ? {} : { response: responseSchemas(declaration) }),
    },
    handler: handler as RouteOptions['handler'],
    ...extras,
  });
}

/** What the API description says of a declaration a service key may call (docs/integrations.md). */
const keyScopesLine = (declaration: EndpointDeclaration) =>
  declaration.keyScopes
    ? `Callable with a service API key (Authorization: Bearer bsk_…) holding one of: ${declaration.keyScopes.join(', ')}.`
    : undefined;

/** Who is calling an endpoint that is not public (the access hook has checked there is someone). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf: the route is public; check request.principal instead');
  return request.principal;
}
