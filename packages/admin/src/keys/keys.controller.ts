import type { IncomingMessage } from 'node:http';
import { ApiKeyService, type CreatedApiKey, ROLES } from '@giro/transfer-module';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Logger,
  Optional,
  Param,
  Post,
  Req,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { recordedActorOf } from '../shared/http/admin-actor';
import { RequiresRole } from '../shared/http/admin-role.decorator';
import { AdminRoutes } from '../shared/http/admin-routes.decorator';
import { Audited } from '../shared/http/audited.decorator';

/**
 * The admin API's keys (admin role): created — the key in the answer, once, never stored or shown again —, listed
 * without secrets, revoked by name. The body is read by ApiKeyService (a 400 names each bad field), as for the
 * sub-accounts. Revoking is `POST …/:name/revoke`, like `POST /admin/sub-accounts/:address/disable`: the key is
 * kept (revoked), not deleted.
 */
@AdminRoutes('keys')
@Controller('admin/keys')
@RequiresRole('admin')
export class KeysController {
  private readonly logger = new Logger('TransferAdmin');

  // Optional: a host whose TransferModule does not provide it (a stub in tests) answers 503 here.
  constructor(@Optional() private readonly keys?: ApiKeyService) {}

  @Audited('key.create')
  @Post()
  @ApiOperation({ summary: 'Create an API key; the answer holds the key, shown this once' })
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'role'],
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'unique, forever' },
        role: { type: 'string', enum: [...ROLES] },
      },
    },
  })
  @ApiCreatedResponse({ description: '`{ keyId, name, role, active, createdAt, revokedAt, createdBy, key }`' })
  @ApiBadRequestResponse({ description: 'a bad name or role, or an unknown field: `violations` names each' })
  @ApiConflictResponse({ description: 'a key with this name exists (revoked keys keep their names)' })
  async create(@Body() request: Record<string, unknown>, @Req() http: IncomingMessage): Promise<CreatedApiKey> {
    // The caller's key is the new key's minter: the approval rule tells people apart by it.
    const created = await this.service().createKey(request, recordedActorOf(http).keyId);
    // Never the key: its public id and name only.
    this.logger.log({ keyId: created.keyId, keyName: created.name, role: created.role }, 'API key created');
    return created;
  }

  @Get()
  @ApiOperation({ summary: 'Every API key, revoked ones included, without secrets' })
  @ApiOkResponse({ description: '`{ keyId, name, role, active, createdAt, revokedAt, createdBy }[]`, oldest first' })
  list() {
    return this.service().listKeys();
  }

  @Audited('key.revoke')
  @Post(':name/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key: every replica refuses it within a second (idempotent)' })
  @ApiNotFoundResponse({ description: 'no key has this name' })
  async revoke(@Param('name') name: string) {
    const revoked = await this.service().revokeKey(name);
    this.logger.log({ keyId: revoked.keyId, keyName: revoked.name }, 'API key revoked');
    return revoked;
  }

  private service(): ApiKeyService {
    if (this.keys === undefined) {
      throw new ServiceUnavailableException('API keys are not available: this application provides no ApiKeyService');
    }
    return this.keys;
  }
}
