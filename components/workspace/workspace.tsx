'use client';
/**
 * The lab workspace: the lesson text on one side; on the other the editor,
 * the verdict, the check, time travel and tabs for recent events, links, the
 * console and measurements, beside the instrument panel (Run, the nodes, the
 * clients, their keys and the timeline; components/instruments/). Used by
 * /playground and by every lesson page:
 *
 *   <Workspace lesson={lesson}>{lessonText}</Workspace>
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { InstrumentPanel } from '@/components/instruments/instrument-panel';
import { InstrumentStrip } from '@/components/instruments/instrument-strip';
import { useInstrumentKeys } from '@/components/instruments/use-instrument-keys';
import { LinkGrid } from '@/components/clients/link-grid';
import { codeFor, createCodeStore } from '@/components/editor/code-store';
import { LabProvider, useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { MeasurementsTab } from '@/components/measurements/measurements-tab';
import { CommandErrors, LabStatus } from '@/components/lab/lab-status';
import { RecentHistory } from '@/components/lab/recent-history';
import { useProgressActions, useProgress } from '@/components/progress/progress-provider';
import { TimeTravel } from '@/components/timeline/time-travel';
import { ShareRun } from '@/components/share/share-run';
import { VerdictPanel } from '@/components/verdict/verdict-panel';
import { ConsolePanel } from './console-panel';
import { runnable, sameProgram, scenarioProgram, shownForScenario, type ProgramLabels, type ShownProgram } from './editor-source';
import { EditorPanel } from './editor-panel';
import { DoItYourselfPanel } from './do-it-yourself-panel';
import { ExercisePanel } from './exercise-panel';
import { ExplorePanel } from './explore-panel';
import { ExperimentPanel } from './experiment-panel';
import { Tabs } from './tabs';
import { EditorActions, Toolbar } from './toolbar';
import type { WorkspaceProps } from './types';
import { handScenario } from '@/lib/do-it-yourself/task';
import styles from './workspace.module.css';

export function Workspace(props: WorkspaceProps) {
  const { lesson } = props;
  return (
    <LabProvider page={lesson.slug} topology={lesson.topology} clients={Math.max(lesson.defaultClients, ...lesson.scenarios.map((s) => s.clients))}>
      <WorkspaceBody {...props} />
    </LabProvider>
  );
}

function WorkspaceBody({ lesson, children, onRunEnded }: WorkspaceProps) {
  const t = useTranslations('workspace');
  // The programs' names in the page's language: the editor's banner, the scenario note and the verdict's "Ran …" use them.
  const labels: ProgramLabels = useMemo(
    () => ({ myCode: t('programs.myCode'), solution: t('programs.solution'), savedRun: t('programs.savedRun'), starter: t('programs.starter') }),
    [t],
  );
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const lab = useLabClient();
  const progress = useProgressActions();
  const ranBefore = useProgress((s) => (s.lessons[lesson.slug]?.runs ?? 0) > 0);
  const diagnostics = useLabStore((s) => s.run.diagnostics);
  // A check's run played the check's program: its markers are not on the learner's lines.
  const checkRun = useLabStore((s) => s.run.info?.check !== undefined);
  const runProgram = useLabStore((s) => s.run.program) ?? labels.myCode;
  const ended = useLabStore((s) => s.run.ended);
  const hasLab = useLabStore((s) => s.labId !== null);
  const openReplay = useLabStore((s) => s.actions.openReplay);
  const replaying = useLabStore((s) => s.view.replay !== null);

  // The learner's code, kept per lesson in this browser.
  const [codeStore] = useState(createCodeStore);
  useEffect(() => {
    void codeStore.persist.rehydrate();
  }, [codeStore]);
  const hydrated = useStore(codeStore, (s) => s.hydrated);
  const code = useStore(codeStore, (s) => codeFor(s, lesson.slug, lesson.starter));
  const codeRef = useRef(code);
  codeRef.current = code;
  // A program shown instead of the learner's code (a scenario's, the solution, a saved run's); null: their own code.
  const [shown, setShown] = useState<ShownProgram | null>(null);
  const shownRef = useRef(shown);
  shownRef.current = shown;

  const [scenarioId, setScenarioId] = useState(
    lesson.defaultScenario === undefined ? (lesson.scenarios[0]?.id ?? '') : (lesson.defaultScenario ?? ''),
  );
  const scenario = useMemo(() => lesson.scenarios.find((s) => s.id === scenarioId) ?? null, [lesson.scenarios, scenarioId]);
  const [clients, setClients] = useState(scenario?.clients ?? lesson.defaultClients);

  // A run counts as soon as it is asked for (progress "ran", and "Show solution" once they have tried):
  // counting only ended runs would lose a run the learner left by reloading the page.
  const run = useCallback(() => {
    progress.markRan(lesson.slug);
    if (replaying) openReplay(null, null);
    void lab.startRun({ ...runnable(codeRef.current, shownRef.current, labelsRef.current), scenario, checker: lesson.checker ?? null, clients });
  }, [lab, progress, lesson.slug, lesson.checker, scenario, clients, replaying, openReplay]);

  useEffect(() => {
    if (ended && !checkRun) onRunEnded?.(ended);
  }, [ended, checkRun, onRunEnded]);

  const program = scenario ? scenarioProgram(lesson, scenario.id, labels) : null;
  const myCodeInScenario = program && !shown && !sameProgram(program.code, code) ? { writtenFor: program.label, show: () => setShown(program) } : null;

  // Picking a scenario shows the program it was written for; the learner's code stays, one click away.
  const chooseScenario = useCallback(
    (id: string) => {
      setScenarioId(id);
      const next = lesson.scenarios.find((s) => s.id === id);
      if (next) setClients(next.clients);
      setShown(id === '' ? null : shownForScenario(scenarioProgram(lesson, id, labelsRef.current), codeRef.current, lesson.starter));
    },
    [lesson],
  );

  // A link can pick the scenario (`?scenario=failover`): the instructor's "follow me" sends learners
  // to the lesson with the demo's scenario chosen. Read after mount, because the page is static.
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get('scenario');
    if (wanted && lesson.scenarios.some((s) => s.id === wanted)) chooseScenario(wanted);
  }, [lesson.scenarios, chooseScenario]);

  // "Do it yourself": the break scenario's program and set-up, without the faults the learner injects, stopping at the breakpoint.
  const diy = lesson.doItYourself;
  const diyBreak = diy ? lesson.scenarios.find((s) => s.id === diy.scenario) : undefined;
  const runDoItYourself = useCallback(async () => {
    if (!diy || !diyBreak) return null;
    const program = scenarioProgram(lesson, diyBreak.id, labelsRef.current);
    if (!program) return null;
    chooseScenario(diyBreak.id);
    void lab.setBreakpoint(diy.breakpoint);
    progress.markRan(lesson.slug);
    if (replaying) openReplay(null, null);
    return lab.startRun({ code: program.code, program: program.label, scenario: handScenario(diyBreak, diy.byHand), checker: lesson.checker ?? null, clients: diyBreak.clients });
  }, [diy, diyBreak, lesson, chooseScenario, lab, progress, replaying, openReplay]);

  useInstrumentKeys(clients);
  const aboutId = useId();

  // The nodes and the clients are in the instrument panel; the tabs keep what is read at leisure.
  const tabs = [
    { id: 'events', label: t('tabs.events'), panel: hasLab ? <RecentHistory limit={8} /> : <p className={styles.muted}>{t('nodesAppear')}</p> },
    { id: 'links', label: t('tabs.links'), panel: <LinkGrid /> },
    { id: 'console', label: t('tabs.console'), panel: <ConsolePanel defaultClients={clients} /> },
    { id: 'measurements', label: t('tabs.measurements'), panel: <MeasurementsTab />, lazy: true },
  ];

  return (
    <div className={styles.workspace} data-has-text={children ? true : undefined}>
      {children && (
        <article className={styles.text} aria-label={t('lessonLabel', { title: lesson.title })}>
          {children}
        </article>
      )}
      <div className={styles.lab}>
        <div className={styles.status}>
          <LabStatus />
          <CommandErrors />
        </div>
        {/* First in the page's order, so Tab reaches the editor before the panel; on a wide screen the panel is a column beside it. */}
        <div className={styles.main}>
          <EditorActions
            scenario={scenario ?? undefined}
            aboutId={aboutId}
            onReset={() => {
              codeStore.getState().forget(lesson.slug);
              setShown(null);
            }}
            onShowSolution={
              lesson.solution !== undefined && ranBefore && shown?.kind !== 'solution'
                ? () => setShown({ kind: 'solution', label: labels.solution, code: lesson.solution ?? '' })
                : null
            }
            myCodeInScenario={myCodeInScenario}
          />
          <div className={styles.top}>
            <EditorPanel
              slug={lesson.slug}
              value={shown?.code ?? code}
              ready={hydrated}
              onChange={(next) => {
                // A read-only model still reports the value it was given: only the learner's own model saves.
                if (!shownRef.current) codeStore.getState().setCode(lesson.slug, next);
              }}
              onRun={run}
              // Markers belong to the program that ran: never put a run's line numbers on another program.
              diagnostics={!checkRun && runProgram === runnable(code, shown, labels).program ? diagnostics : []}
              shown={shown ? { label: shown.label, kind: shown.kind, onBack: () => setShown(null) } : null}
            />
            <VerdictPanel />
          </div>
          {diy && diyBreak && <DoItYourselfPanel slug={lesson.slug} task={diy} scenarioTitle={diyBreak.title} onSetUp={runDoItYourself} />}
          {lesson.exercise && <ExercisePanel slug={lesson.slug} exercise={lesson.exercise} scenarios={lesson.scenarios} code={() => codeRef.current} />}
          <ExplorePanel {...(lesson.exercise ? { slug: lesson.slug } : {})} code={() => codeRef.current} />
          {lesson.experiment && <ExperimentPanel />}
          <TimeTravel slug={lesson.slug} defaultClients={clients} onLoadCode={(saved) => setShown({ kind: 'saved-run', label: labels.savedRun, code: saved })} />
          {/* Beside time travel's Export: the same recorded run, kept by the server behind a link. */}
          <ShareRun slug={lesson.slug} />
          <Tabs label={t('labPanels')} tabs={tabs} />
        </div>
        <InstrumentPanel
          className={styles.instruments}
          defaultClients={clients}
          toolbar={
            <Toolbar
              scenarios={lesson.scenarios}
              scenarioId={scenarioId}
              onScenario={chooseScenario}
              clients={clients}
              onClients={setClients}
              onRun={run}
              onStop={() => void lab.stopRun()}
              aboutId={aboutId}
            />
          }
        />
        <InstrumentStrip defaultClients={clients} className={styles.strip} hiddenWhen={children ? '(min-width: 75rem)' : '(min-width: 62rem)'} />
      </div>
    </div>
  );
}
