/**
 * zod with the OpenAPI extension (`.openapi(name | metadata)`), for the core's schemas.
 * The core names its shapes for the API reference without depending on hono: this is the
 * same zod instance and the same extension @hono/zod-openapi applies (the extension is
 * idempotent), so a schema built here is a valid `createRoute` body or response.
 */
import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

extendZodWithOpenApi(z);

export { z };
