import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { errorBody } from '../shared/http/error-body';
import { type ConsoleAsset, ConsoleAssets, type ConsoleFileName, isConsoleFileName } from './console-assets';

/**
 * The console's own policy, stricter than an application's (the reconciler's helmet allows inline styles for
 * `/docs`): its script and style are files of this origin, and it talks only to this origin's admin API.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** index.html is asked for again at every visit; a file whose URL carries its version never changes. */
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The operator console (`GET /console`): a static page and its two files, without authentication — there is
 * nothing in them but code; what the page shows comes from the admin API, which needs a key. Only the known
 * files are served (no path reaches the file system). Its headers are set here, after any middleware of the
 * application, so the console's Content-Security-Policy is the one the browser gets.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(private readonly assets: ConsoleAssets) {}

  @Get()
  page(@Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    // `/console/` would resolve the page's relative URLs one folder too deep: send it to `/console`.
    if (new URL(request.url ?? '', 'http://console').pathname.endsWith('/')) {
      response.writeHead(301, { Location: '../console' }).end();
      return;
    }
    this.send('index.html', request, response, REVALIDATE);
  }

  @Get(':file')
  file(@Param('file') file: string, @Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    if (!isConsoleFileName(file) || file === 'index.html') {
      notFound(response, 'no such file in the console');
      return;
    }
    const version = new URL(request.url ?? '', 'http://console').searchParams.get('v');
    const asset = this.assets.get(file);
    this.send(file, request, response, asset !== undefined && version === asset.version ? IMMUTABLE : REVALIDATE);
  }

  private send(name: ConsoleFileName, request: IncomingMessage, response: ServerResponse, cache: string): void {
    const asset = this.assets.get(name);
    if (asset === undefined) {
      notFound(response, 'the console is not built: run `pnpm build` (or `pnpm build:js`)');
      return;
    }
    setConsoleHeaders(response, asset, cache);
    if (request.headers['if-none-match'] === `"${asset.version}"`) {
      response.statusCode = 304;
      response.end();
      return;
    }
    response.statusCode = 200;
    response.setHeader('Content-Type', asset.contentType);
    response.setHeader('Content-Length', asset.body.length);
    response.end(asset.body);
  }
}

function setConsoleHeaders(response: ServerResponse, asset: ConsoleAsset, cache: string): void {
  response.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cache-Control', cache);
  response.setHeader('ETag', `"${asset.version}"`);
}

function notFound(response: ServerResponse, message: string): void {
  response.statusCode = 404;
  response.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.end(JSON.stringify(errorBody(404, 'NOT_FOUND', message)));
}
