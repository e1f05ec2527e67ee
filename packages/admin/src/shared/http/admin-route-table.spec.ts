import { Controller, Get, Post } from '@nestjs/common';
import { AdminRouteTable } from './admin-route-table';
import { Audited } from './audited.decorator';

// A request refused before routing is recorded under its route's action: the table finds it as Express would.

@Controller('admin/things')
class ThingExportController {
  @Audited('thing.export')
  @Get('export.csv')
  export() {}
}

@Controller('admin/things')
class ThingsController {
  @Get(':id')
  one() {}

  @Audited('thing.revoke')
  @Post(':name/revoke')
  revoke() {}
}

describe('AdminRouteTable', () => {
  const table = new AdminRouteTable([ThingExportController, ThingsController]);

  it('names a route by its @Audited action, else by its method and declared path, with its parameters', () => {
    expect(table.find('POST', '/admin/things/ops%2Fx/revoke')).toEqual({
      action: 'thing.revoke',
      params: { name: 'ops/x' },
    });
    expect(table.find('GET', '/admin/things/42')).toEqual({ action: 'GET /admin/things/:id', params: { id: '42' } });
  });

  it('tries routes in the order Express does, literal segments exactly', () => {
    expect(table.find('GET', '/admin/things/export.csv')?.action).toBe('thing.export');
    expect(table.find('GET', '/admin/things/exportXcsv')?.action).toBe('GET /admin/things/:id');
  });

  it('finds nothing for another method or path', () => {
    expect(table.find('DELETE', '/admin/things/42')).toBeUndefined();
    expect(table.find('GET', '/admin/things/42/more')).toBeUndefined();
  });
});
