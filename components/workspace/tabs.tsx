'use client';
/**
 * Accessible tabs (WAI-ARIA pattern): arrow keys move between tabs, panels stay mounted. A `lazy` panel is first
 * rendered when its tab is first chosen (then it stays), so what only it needs is not fetched with the page.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './workspace.module.css';

export interface TabSpec {
  id: string;
  label: ReactNode;
  panel: ReactNode;
  lazy?: boolean;
}

export function Tabs({ tabs, label }: { tabs: TabSpec[]; label: string }) {
  const [selected, setSelectedId] = useState(tabs[0]?.id ?? '');
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([tabs[0]?.id ?? '']));
  const setSelected = (id: string) => {
    setSelectedId(id);
    setVisited((v) => (v.has(id) ? v : new Set([...v, id])));
  };
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKey = (e: KeyboardEvent, index: number) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (e.key === 'Home' || e.key === 'End' || delta !== 0) {
      e.preventDefault();
      const next = e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : (index + delta + tabs.length) % tabs.length;
      const tab = tabs[next];
      if (tab) {
        setSelected(tab.id);
        refs.current[tab.id]?.focus();
      }
    }
  };
  return (
    <div className={styles.tabs}>
      <div role="tablist" aria-label={label} className={styles.tabList}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={selected === tab.id}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={selected === tab.id ? 0 : -1}
            className={styles.tab}
            onClick={() => setSelected(tab.id)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div key={tab.id} role="tabpanel" id={`${base}-panel-${tab.id}`} aria-labelledby={`${base}-tab-${tab.id}`} hidden={selected !== tab.id} className={styles.tabPanel}>
          {!tab.lazy || visited.has(tab.id) ? tab.panel : null}
        </div>
      ))}
    </div>
  );
}
