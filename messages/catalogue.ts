/**
 * The English catalogue is the source: its keys are the ones every language
 * must have, and its type gives `useTranslations` typed keys (global.d.ts).
 * One file per namespace (`messages/<locale>/<namespace>.json`), so a screen's
 * words live together and translators work on small files.
 */
export { messageLeaves } from './leaves';
import checker from './en/checker.json';
import common from './en/common.json';
import classroom from './en/classroom.json';
import course from './en/course.json';
import experiment from './en/experiment.json';
import grading from './en/grading.json';
import lesson from './en/lesson.json';
import measurements from './en/measurements.json';
import pages from './en/pages.json';
import workspace from './en/workspace.json';
import exercise from './en/exercise.json';
import editor from './en/editor.json';
import quiz from './en/quiz.json';
import progress from './en/progress.json';
import playground from './en/playground.json';
import verdict from './en/verdict.json';
import timeline from './en/timeline.json';
import cluster from './en/cluster.json';
import clients from './en/clients.json';
import lab from './en/lab.json';

export const english = { common, course, lesson, pages, workspace, exercise, editor, quiz, progress, playground, classroom, measurements, experiment, verdict, timeline, cluster, clients, lab, checker, grading };

export type Messages = typeof english;
export type Namespace = keyof Messages;
export const NAMESPACES = Object.keys(english) as Namespace[];

/** Dotted paths of every string in `source` that `translation` has no string for. */
export function missingKeys(source: unknown, translation: unknown, prefix = ''): string[] {
  if (typeof source === 'string') return typeof translation === 'string' && translation.trim() !== '' ? [] : [prefix];
  if (source === null || typeof source !== 'object') return [];
  const t = translation !== null && typeof translation === 'object' ? (translation as Record<string, unknown>) : {};
  return Object.entries(source as Record<string, unknown>).flatMap(([k, v]) => missingKeys(v, t[k], prefix ? `${prefix}.${k}` : k));
}

