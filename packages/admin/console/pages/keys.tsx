import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { type ApiKey, ROLES, type Role } from '../api/types';
import { SelectField, TextField } from '../components/fields';
import { ErrorNotice, ShownOnce } from '../components/notices';
import { DataTable } from '../components/table';
import { Time } from '../components/values';
import { useI18n } from '../i18n/i18n';
import { fieldErrorText } from '../i18n/violations';
import { useSession } from '../session';
import { useLoad } from '../use-load';

/** API keys (admin): listed without secrets, created (the key shown this once), revoked. */
export function Keys() {
  const { t, tm, lang } = useI18n();
  const { api } = useSession();
  const { data, error, reload } = useLoad(() => api.get<ApiKey[]>('admin/keys'), []);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [created, setCreated] = useState<ApiKey & { key: string }>();
  const [createError, setCreateError] = useState<unknown>();
  const [revokeError, setRevokeError] = useState<unknown>();
  /** The key whose revocation waits for a second click: revoking cannot be undone. */
  const [confirming, setConfirming] = useState<string>();
  const violations = createError instanceof ApiError ? createError.violations : [];
  const fieldError = (field: string) => fieldErrorText(createError, field, lang);

  const create = async (event: Event) => {
    event.preventDefault();
    setCreateError(undefined);
    setCreated(undefined);
    try {
      setCreated(await api.post<ApiKey & { key: string }>('admin/keys', { name: name.trim().normalize('NFC'), role }));
      setName('');
      reload();
    } catch (failure) {
      setCreateError(failure);
    }
  };

  const revoke = async (key: ApiKey) => {
    setConfirming(undefined);
    setRevokeError(undefined);
    try {
      await api.post(`admin/keys/${encodeURIComponent(key.name)}/revoke`);
      reload();
    } catch (failure) {
      setRevokeError(failure);
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{t('keys.title')}</h1>
      <form class="filters" onSubmit={create} noValidate>
        <TextField
          id="key-name"
          label={t('keys.name')}
          value={name}
          onInput={setName}
          error={fieldError('name')}
          hint={t('keys.nameHint')}
        />
        <SelectField
          id="key-role"
          label={t('keys.role')}
          value={role}
          onChange={(value) => setRole(value as Role)}
          error={fieldError('role')}
          options={ROLES.map((option) => ({ value: option, label: t(`role.${option}`) }))}
        />
        <div class="actions">
          <button type="submit" class="primary">
            {t('keys.create')}
          </button>
        </div>
      </form>
      {violations.length === 0 && <ErrorNotice error={createError} />}
      {created && (
        <ShownOnce
          id="created-key"
          text={tm('keys.createdOnce', { name: created.name })}
          label={t('keys.theKey')}
          secret={created.key}
        />
      )}
      <ErrorNotice error={revokeError} />
      <ErrorNotice error={error} />
      {data && (
        <DataTable
          columns={[
            t('keys.name'),
            t('keys.role'),
            t('keys.id'),
            t('field.createdAt'),
            t('keys.state'),
            t('keys.revoke'),
          ]}
        >
          {data.map((key) => (
            <tr key={key.keyId}>
              <td translate={false}>{key.name}</td>
              <td>{t(`role.${key.role}`)}</td>
              <td class="mono">{key.keyId}</td>
              <td>
                <Time at={key.createdAt} />
              </td>
              <td>
                {key.active ? (
                  t('keys.active')
                ) : (
                  <>
                    {t('keys.revoked')} <Time at={key.revokedAt} />
                  </>
                )}
              </td>
              <td>
                {key.active && confirming !== key.name && (
                  <button type="button" class="danger" onClick={() => setConfirming(key.name)}>
                    {t('keys.revoke')}
                  </button>
                )}
                {key.active && confirming === key.name && (
                  <fieldset class="confirm">
                    <legend>{tm('keys.confirmRevoke', { name: key.name })}</legend>
                    <button type="button" class="danger" onClick={() => revoke(key)}>
                      {t('keys.confirmRevokeYes')}
                    </button>
                    <button type="button" onClick={() => setConfirming(undefined)}>
                      {t('keys.confirmRevokeNo')}
                    </button>
                  </fieldset>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
