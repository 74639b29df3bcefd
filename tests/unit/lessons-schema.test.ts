/**
 * The lesson format: every lesson in the repo loads and validates, and a
 * broken lesson fails with a message naming the file and the field.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile } from '@mdx-js/mdx';
import { afterAll, describe, expect, it } from 'vitest';
import { LessonFormatError, loadAllLessons, loadLesson } from '@/lib/lessons/load';
import { scenarioSchema } from '@/lib/scenario';

const lessons = loadAllLessons();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of lesson 1 with one file changed, loaded: returns the error it throws. */
function breakLesson(file: string, edit: (text: string) => string): LessonFormatError {
  const dir = path.join(tmp, `${Math.random().toString(36).slice(2)}`, '01-naive-lock');
  fs.cpSync(path.resolve('lessons/01-naive-lock'), dir, { recursive: true });
  const target = path.join(dir, file);
  fs.writeFileSync(target, edit(fs.readFileSync(target, 'utf8')));
  try {
    loadLesson(dir);
  } catch (error) {
    if (error instanceof LessonFormatError) return error;
    throw error;
  }
  throw new Error(`the broken ${file} was accepted`);
}

describe('the lessons in the repo', () => {
  it('are eight, in order 1..8, with unique slugs', () => {
    expect(lessons.map((l) => l.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(lessons.map((l) => l.slug)).size).toBe(8);
  });

  it.each(lessons.map((l) => [l.folder, l] as const))('%s: every scenario parses and expects what its role says', (_folder, lesson) => {
    for (const s of lesson.lessonScenarios) {
      expect(scenarioSchema.safeParse(s.scenario).success).toBe(true);
      expect(s.scenario.id).toBe(s.id);
      if (s.role === 'break') expect(s.expect.verdict).toBe('violated');
      if (s.role === 'fix') expect(s.expect.verdict).toBe('held');
      expect(s.code.length).toBeGreaterThan(100);
    }
    expect(lesson.lessonScenarios.some((s) => s.role === 'break')).toBe(true);
    expect(lesson.lessonScenarios.some((s) => s.role === 'fix')).toBe(true);
    for (const id of lesson.exercise.scenarios) expect(lesson.lessonScenarios.map((s) => s.id)).toContain(id);
  });

  it.each(lessons.map((l) => [l.folder, l] as const))('%s: every quiz question has exactly one right answer and explains each choice', (_folder, lesson) => {
    expect(lesson.quiz.questions.length).toBeGreaterThanOrEqual(3);
    expect(lesson.quiz.questions.length).toBeLessThanOrEqual(5);
    for (const q of lesson.quiz.questions) {
      expect(q.choices.filter((c) => c.correct)).toHaveLength(1);
      for (const c of q.choices) expect(c.why.length).toBeGreaterThan(10);
    }
  });

  it.each(lessons.map((l) => [l.folder, l] as const))('%s: the text compiles as MDX, has a diagram and hints', async (_folder, lesson) => {
    await expect(compile(lesson.body, { outputFormat: 'function-body' })).resolves.toBeDefined();
    expect(lesson.diagrams.length).toBeGreaterThanOrEqual(1);
    expect(lesson.hints.length).toBeGreaterThanOrEqual(1);
  });

  it('the starter and the solution differ in the exercise function', () => {
    for (const lesson of lessons) expect(lesson.starter).not.toBe(lesson.solution);
  });
});

describe('a broken lesson', () => {
  it('names the front matter field that is wrong', () => {
    const error = breakLesson('lesson.mdx', (t) => t.replace('defaultClients: 3', 'defaultClients: lots'));
    expect(error.file).toMatch(/01-naive-lock[/\\]lesson\.mdx$/);
    expect(error.field).toBe('defaultClients');
    expect(error.message).toMatch(/lesson\.mdx → defaultClients: /);
  });

  it('names a nested exercise field', () => {
    const error = breakLesson('lesson.mdx', (t) => t.replace('seeds: [11, 12, 13]', 'seeds: []'));
    expect(error.field).toBe('exercise.seeds');
  });

  it('refuses an exercise scenario the lesson does not list', () => {
    const error = breakLesson('lesson.mdx', (t) => t.replace('scenarios: [race-fixed, holder-crash-ttl]', 'scenarios: [race-fixed, nowhere]'));
    expect(error.field).toBe('exercise.scenarios.1');
    expect(error.message).toContain('"nowhere"');
  });

  it('names the scenario file and step field', () => {
    const error = breakLesson('scenarios/holder-crash.json', (t) => t.replace('"client-crash"', '"client-explode"'));
    expect(error.file).toMatch(/scenarios[/\\]holder-crash\.json$/);
    expect(error.field).toBe('steps.0.action');
  });

  it('refuses a trigger on a client the scenario does not run', () => {
    const error = breakLesson('scenarios/holder-crash.json', (t) => t.replace('"when": { "on": "job-enter", "client": 1 }', '"when": { "on": "job-enter", "client": 4 }'));
    expect(error.field).toBe('steps.0.when.client');
    expect(error.message).toContain('3 client(s)');
  });

  it('refuses a node the lab does not have', () => {
    const error = breakLesson('scenarios/holder-crash.json', (t) => t.replace(/"steps": \[[\s\S]*\]/, '"steps": [{ "at": 150, "action": "node-kill", "node": 3 }]'));
    expect(error.field).toBe('steps.0.node');
    expect(error.message).toContain('1 node(s)');
  });

  it('refuses a quiz question with two right answers', () => {
    const error = breakLesson('quiz.json', (t) => t.replace('"correct": false', '"correct": true'));
    expect(error.file).toMatch(/quiz\.json$/);
    expect(error.field).toMatch(/^questions\.\d+\.choices$/);
    expect(error.message).toContain('exactly one choice must be correct');
  });

  it('says when a file is missing', () => {
    const error = breakLesson('hints.md', () => '');
    expect(error.file).toMatch(/hints\.md$/);
    expect(error.message).toContain('empty');
  });

  it('says when the starter lacks the exercise function', () => {
    const error = breakLesson('starter.ts', (t) => t.replace(/async function acquire\(/, 'async function grab('));
    expect(error.field).toBe('exercise.function');
  });
});
