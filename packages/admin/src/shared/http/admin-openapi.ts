import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_SCHEMAS } from '../../transfers/movement.schema';

export interface AdminOpenApiOptions {
  /** The document's title (default `giro admin API`). */
  title?: string;
  /** Its description (default: what the admin API does and the bearer token it needs). */
  description?: string;
  /** Its version (default `1`). */
  version?: string;
  /** Where the UI is served (default `docs`: the UI at `/docs`, the JSON at `/docs-json`). */
  path?: string;
}

export const ADMIN_OPENAPI_DEFAULTS = {
  title: 'giro admin API',
  description:
    'Admin API of giro: create transfers, follow them to their final state, register cancellations. ' +
    'Every /admin route needs `Authorization: Bearer <API key or admin token>` with the role its operation names ' +
    '(`x-giro-role`: viewer, operator, approver or admin): 401 without a valid one, 403 naming the role needed.',
  version: '1',
  path: 'docs',
} as const satisfies Required<AdminOpenApiOptions>;

/**
 * Mounts the OpenAPI description of the application — the admin routes with their bearer scheme, and the
 * application's own routes, as SwaggerModule describes them — at `/docs` (JSON at `/docs-json`). Call it after
 * `NestFactory.create`, before `listen`. Returns the document.
 */
export function setupAdminOpenApi(app: INestApplication, options: AdminOpenApiOptions = {}): OpenAPIObject {
  const defaults = ADMIN_OPENAPI_DEFAULTS;
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(options.title ?? defaults.title)
      .setDescription(options.description ?? defaults.description)
      .setVersion(options.version ?? defaults.version)
      .addBearerAuth()
      .build(),
  );
  // The named schemas the admin routes' answers refer to (SwaggerModule collects only classes' own).
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...ADMIN_SCHEMAS } };
  SwaggerModule.setup(options.path ?? defaults.path, app, document);
  return document;
}
