'use client';
/**
 * The client × node link grid: each cell says whether Client c can reach
 * Node n, and cuts or heals that one link ("Cut Client 1 → Node 2"). A
 * delay is set below the grid for one link at a time.
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { faultPendingKey } from '@/lib/faults/command-words';
import { useShallow } from 'zustand/react/shallow';
import type { LinkView } from '@/lib/cluster';
import { ControlButton } from '@/components/cluster/node-controls';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import styles from './clients.module.css';

type ClientsT = ReturnType<typeof useTranslations<'clients'>>;

function linkWords(t: ClientsT, link: LinkView | undefined, ms: (n: number) => string): string {
  if (!link) return t('link.none');
  if (link.cut) return link.cut === 'refuse' ? t('link.refused') : t('link.cut');
  if (link.delayMs > 0) return t('link.delayed', { delay: ms(link.delayMs) });
  return t('link.ok');
}

export interface LinkGridProps {
  /** Only Clients 1…clients (a classroom demo's); the lab may hold links for more, from an earlier run. */
  clients?: number;
}

export function LinkGrid({ clients }: LinkGridProps = {}) {
  const lab = useLabClient();
  const t = useTranslations('clients');
  const format = useFormatter();
  const ms = (n: number) => format.number(n, { useGrouping: false });
  const links = useLabStore((s) => s.links);
  const nodeIds = useLabStore(useShallow((s) => s.nodeIds));
  const clientIds = [...new Set(links.map((l) => l.client))].filter((c) => clients === undefined || c <= clients).sort((a, b) => a - b);
  const byPair = new Map(links.map((l) => [`${l.client}:${l.node}`, l] as const));

  return (
    <section aria-labelledby="links-title" className={styles.links}>
      <h2 id="links-title" className={styles.title}>
        {t('links.title')}
      </h2>
      <p className={styles.hint}>{t('links.hint')}</p>
      {clientIds.length === 0 ? (
        <p className={styles.hint}>{t('links.empty')}</p>
      ) : (
        <div className={styles.gridScroll}>
          <table className={styles.grid}>
            <caption className="visually-hidden">{t('links.caption')}</caption>
            <thead>
              <tr>
                <td />
                {nodeIds.map((n) => (
                  <th key={n} scope="col">
                    {t('node', { n })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {clientIds.map((c) => (
                <tr key={c}>
                  <th scope="row">{t('client', { n: c })}</th>
                  {nodeIds.map((n) => {
                    const link = byPair.get(`${c}:${n}`);
                    const cut = Boolean(link?.cut);
                    return (
                      <td key={n} data-state={cut ? 'cut' : link && link.delayMs > 0 ? 'delayed' : 'ok'}>
                        <span className={styles.linkState}>
                          <span aria-hidden="true">{cut ? '✕ ' : ''}</span>
                          {linkWords(t, link, ms)}
                        </span>
                        {cut ? (
                          <ControlButton
                            name={t('heal.name', { client: c, node: n })}
                            pendingKey={faultPendingKey('link-heal', { client: c, node: n })}
                            enabled={Boolean(link)}
                            onPress={() => void lab.fault('link-heal', { client: c, node: n })}
                          >
                            {t('heal.label')}
                          </ControlButton>
                        ) : (
                          <ControlButton
                            name={t('cut.name', { client: c, node: n })}
                            pendingKey={faultPendingKey('link-cut', { client: c, node: n })}
                            variant="danger"
                            enabled={Boolean(link)}
                            onPress={() => void lab.fault('link-cut', { client: c, node: n })}
                          >
                            {t('cut.label')}
                          </ControlButton>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {clientIds.length > 0 && <DelayForm clients={clientIds} nodes={nodeIds} />}
    </section>
  );
}

function DelayForm({ clients, nodes }: { clients: number[]; nodes: number[] }) {
  const lab = useLabClient();
  const t = useTranslations('clients');
  const id = useId();
  const [client, setClient] = useState(clients[0] ?? 1);
  const [node, setNode] = useState(nodes[0] ?? 1);
  const [delay, setDelay] = useState('200');
  const delayMs = Math.round(Number(delay));
  const valid = Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= 60_000;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid) void lab.fault('link-delay', { client, node, delayMs });
  };
  return (
    <form className={styles.delayForm} onSubmit={submit}>
      <label htmlFor={`${id}-c`}>{t('delay.client')}</label>
      <select id={`${id}-c`} value={client} onChange={(e) => setClient(Number(e.target.value))}>
        {clients.map((c) => (
          <option key={c} value={c}>
            {t('client', { n: c })}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-n`}>{t('delay.node')}</label>
      <select id={`${id}-n`} value={node} onChange={(e) => setNode(Number(e.target.value))}>
        {nodes.map((n) => (
          <option key={n} value={n}>
            {t('node', { n })}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-d`}>{t('delay.ms')}</label>
      <input id={`${id}-d`} type="number" min={0} max={60_000} step={50} value={delay} onChange={(e) => setDelay(e.target.value)} aria-invalid={!valid || undefined} />
      <button type="submit" className={styles.submit} aria-disabled={valid ? undefined : true}>
        {t('delay.submit', { client, node })}
      </button>
    </form>
  );
}
