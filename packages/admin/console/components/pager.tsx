import type { Query } from '../api/query';
import { useI18n } from '../i18n/i18n';
import { href } from '../router';

/**
 * Keyset paging of a list whose state is in the address: back to the first page (when on a later one), and on to
 * the page after `nextCursor` (when there is one), each a link to `path` with `query` and its cursor as `after`.
 */
export function Pager({
  path,
  query,
  after,
  nextCursor,
}: {
  path: string;
  query: Query;
  after: string | undefined;
  nextCursor: string | null;
}) {
  const { t } = useI18n();
  return (
    <nav class="pager" aria-label={t('pager.label')}>
      {after !== undefined && <a href={href(path, query)}>{t('pager.first')}</a>}
      {nextCursor !== null && <a href={href(path, { ...query, after: nextCursor })}>{t('pager.next')}</a>}
    </nav>
  );
}
