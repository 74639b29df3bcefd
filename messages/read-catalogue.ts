/**
 * A language's whole catalogue as it is on disk, for Node-side tools and tests (the pages get theirs from
 * i18n/request.ts). No English fallback: a check of a translation should see its gaps.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locale } from '@/i18n/routing';
import { english, NAMESPACES, type Messages } from './catalogue';

export function catalogueOf(locale: Locale): Messages {
  if (locale === 'en') return english;
  const dir = path.join(process.cwd(), 'messages', locale);
  return Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(dir, `${ns}.json`), 'utf8')) as unknown])) as Messages;
}
