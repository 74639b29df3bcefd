/**
 * The English catalogue is the source: its keys are the ones every language
 * must have, and its type gives `useTranslations` typed keys (global.d.ts).
 * One file per namespace (`messages/<locale>/<namespace>.json`), so a screen's
 * words live together and translators work on small files.
 */
export { messageLeaves } from './leaves';
import checker from './en/checker.json' with { type: 'json' };
import common from './en/common.json' with { type: 'json' };
import classroom from './en/classroom.json' with { type: 'json' };
import course from './en/course.json' with { type: 'json' };
import experiment from './en/experiment.json' with { type: 'json' };
import grading from './en/grading.json' with { type: 'json' };
import lesson from './en/lesson.json' with { type: 'json' };
import measurements from './en/measurements.json' with { type: 'json' };
import pages from './en/pages.json' with { type: 'json' };
import workspace from './en/workspace.json' with { type: 'json' };
import exercise from './en/exercise.json' with { type: 'json' };
import editor from './en/editor.json' with { type: 'json' };
import quiz from './en/quiz.json' with { type: 'json' };
import progress from './en/progress.json' with { type: 'json' };
import playground from './en/playground.json' with { type: 'json' };
import verdict from './en/verdict.json' with { type: 'json' };
import timeline from './en/timeline.json' with { type: 'json' };
import cluster from './en/cluster.json' with { type: 'json' };
import clients from './en/clients.json' with { type: 'json' };
import lab from './en/lab.json' with { type: 'json' };
import refusals from './en/refusals.json' with { type: 'json' };
import demos from './en/demos.json' with { type: 'json' };
import judging from './en/judging.json' with { type: 'json' };
import runNotes from './en/runNotes.json' with { type: 'json' };
import history from './en/history.json' with { type: 'json' };

export const english = { common, course, lesson, pages, workspace, exercise, editor, quiz, progress, playground, classroom, measurements, experiment, verdict, timeline, cluster, clients, lab, checker, grading, refusals, demos, judging, runNotes, history };

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

