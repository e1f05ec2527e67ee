import { FILTER_NAMES } from '../../../packages/admin/console/pages/transfer-filters';
import { FORM_FIELDS } from './console-searches';

// The bench is built from bench/src alone and cannot import the console's code at run time; this keeps its copy of
// the transfers page's text fields equal to the page's own filters (the status is a select, chosen apart).
describe('the console bench’s search form', () => {
  it('fills the text fields the transfers page has, by the same names', () => {
    expect([...FORM_FIELDS]).toEqual(FILTER_NAMES.filter((name) => name !== 'status'));
  });
});
