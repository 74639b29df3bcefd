/**
 * A lesson in another language: the English lesson with the words of
 * `lessons/<folder>/i18n/<locale>/` laid over it (Node only, build time).
 *
 * Only words change. Scenarios, adversaries, programs' code, checker settings
 * and the exercise stay the English lesson's, so a run, a verdict and a grade
 * are the same in every language. A program is written once: the translation
 * holds its comments only (`comments.json`, keyed by the English comment), woven
 * into the English code line for line (`program-comments.ts`), so every language
 * shows the same code on the same lines.
 *
 * A part the translation lacks (a file, a quiz question, a scenario's title, a
 * program's comment) shows in English and is listed in `missing`, as is a
 * comment translation no English comment says any more; the pages log them at
 * build time and `tests/unit/i18n-catalogues.test.ts` holds them at zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Locale } from '@/i18n/routing';
import { defaultLessonsRoot, LessonFormatError, loadAllLessons, splitFrontMatter, type Lesson } from './load';
import { icuArguments } from './probe-says';
import { weaveComments } from './program-comments';
import { icuTemplate, type Quiz } from './schema';

export interface LocalizedLesson {
  lesson: Lesson;
  /** What fell back to English, e.g. `quiz.json`, `texts.json → scenarios.race.title`. */
  missing: string[];
}

const translatedFrontMatter = z
  .object({
    title: z.string().min(1).max(120),
    summary: z.string().min(1).max(400),
    exercise: z.object({ description: z.string().min(1).max(1_000) }).strict().optional(),
    notes: z.record(z.string(), z.string().min(1).max(300)).optional(),
  })
  .strict();

const scenarioTexts = z.object({ title: z.string().min(1).max(120), description: z.string().max(2_000).optional() }).strict();
const textsSchema = z
  .object({
    scenarios: z.record(z.string(), scenarioTexts).default({}),
    adversaries: z
      .record(
        z.string(),
        z
          .object({
            title: z.string().min(1).max(160),
            scenario: scenarioTexts.optional(),
            followsWhy: z.string().min(1).max(400).optional(),
            /** The probe's sentences (the adversary's `says`), with the English ones' ICU arguments. */
            says: z.record(z.string(), icuTemplate).optional(),
          })
          .strict(),
      )
      .default({}),
  })
  .strict();

/** A program comment's words, keyed by the English comment's text (its lines joined by a space); "\n" breaks it as the English is broken. */
const commentsSchema = z.record(z.string().min(1), z.string().min(1).max(2_000));

const quizTranslation = z
  .object({
    questions: z.array(
      z
        .object({
          id: z.string(),
          prompt: z.string().min(1).max(600),
          choices: z.array(z.object({ text: z.string().min(1).max(400), correct: z.boolean(), why: z.string().min(1).max(800) }).strict()),
        })
        .strict(),
    ),
  })
  .strict();

/** Every lesson in `locale` (English as it is), sorted as the course is. */
export function loadAllLessonsIn(locale: Locale, root = defaultLessonsRoot()): LocalizedLesson[] {
  return loadAllLessons(root).map((lesson) => localizeLesson(lesson, locale, root));
}

export function localizeLesson(english: Lesson, locale: Locale, root = defaultLessonsRoot()): LocalizedLesson {
  if (locale === 'en') return { lesson: english, missing: [] };
  const dir = path.join(/*turbopackIgnore: true*/ root, english.folder, 'i18n', locale);
  const missing: string[] = [];
  const where = (name: string) => path.relative(process.cwd(), path.join(dir, name)) || name;
  const read = (name: string): string | null => {
    const p = path.join(/*turbopackIgnore: true*/ dir, name);
    if (fs.existsSync(p)) return fs.readFileSync(p, 'utf8');
    missing.push(name);
    return null;
  };
  const json = (name: string): unknown => {
    const text = read(name);
    if (text === null) return null;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new LessonFormatError(where(name), '', `not valid JSON: ${(error as Error).message}`);
    }
  };
  const parse = <S extends z.ZodType>(schema: S, data: unknown, name: string): z.output<S> => {
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new LessonFormatError(where(name), issue?.path.map(String).join('.') ?? '', issue?.message ?? 'invalid');
  };
  const lesson: Lesson = { ...english };

  const mdx = read('lesson.mdx');
  if (mdx !== null) {
    const { data, body } = splitFrontMatter(mdx, path.join(dir, 'lesson.mdx'));
    const fm = parse(translatedFrontMatter, data, 'lesson.mdx');
    const sameShape = bodyShape(body) === bodyShape(english.body);
    if (!sameShape) throw new LessonFormatError(where('lesson.mdx'), 'body', "its headings, code blocks, diagrams and callouts must match the English lesson's, in order");
    lesson.title = fm.title;
    lesson.summary = fm.summary;
    lesson.body = body;
    if (fm.exercise) lesson.exercise = { ...english.exercise, description: fm.exercise.description };
    else missing.push('lesson.mdx → exercise.description');
    lesson.lessonScenarios = english.lessonScenarios.map((s) => {
      if (s.note === undefined) return s;
      const note = fm.notes?.[s.id];
      if (note === undefined) missing.push(`lesson.mdx → notes.${s.id}`);
      return note === undefined ? s : { ...s, note };
    });
  }

  const quiz = json('quiz.json');
  if (quiz !== null) lesson.quiz = overlayQuiz(english.quiz, parse(quizTranslation, quiz, 'quiz.json'), where('quiz.json'), missing);

  const hints = read('hints.md');
  if (hints !== null) {
    const translated = hints.split(/^## .*$/m).slice(1).map((h) => h.trim()).filter(Boolean);
    if (translated.length !== english.hints.length) throw new LessonFormatError(where('hints.md'), '', `${translated.length} hint(s); the English lesson has ${english.hints.length}`);
    lesson.hints = translated;
  }

  const texts = json('texts.json');
  const t = texts === null ? null : parse(textsSchema, texts, 'texts.json');
  if (t) {
    lesson.lessonScenarios = lesson.lessonScenarios.map((s) => {
      const own = t.scenarios[s.scenario.id];
      if (!own) missing.push(`texts.json → scenarios.${s.scenario.id}`);
      else if (s.scenario.description && !own.description) missing.push(`texts.json → scenarios.${s.scenario.id}.description`);
      return own ? { ...s, scenario: { ...s.scenario, title: own.title, description: own.description ?? s.scenario.description } } : s;
    });
    lesson.adversaries = english.adversaries.map((a) => {
      const own = t.adversaries[a.id];
      if (!own) {
        missing.push(`texts.json → adversaries.${a.id}`);
        return a;
      }
      if (a.follows && !own.followsWhy) missing.push(`texts.json → adversaries.${a.id}.followsWhy`);
      return {
        ...a,
        title: own.title,
        says: overlaySays(a.id, a.says, own.says ?? {}, where('texts.json'), missing),
        scenario: own.scenario ? { ...a.scenario, title: own.scenario.title, description: own.scenario.description ?? a.scenario.description } : a.scenario,
        follows: a.follows && own.followsWhy ? { ...a.follows, why: own.followsWhy } : a.follows,
      };
    });
  }

  // Programs: the English code, with the translation's comments woven in line for line (comments.json, keyed by the English comment).
  const comments = json('comments.json');
  const said = comments === null ? null : parse(commentsSchema, comments, 'comments.json');
  const used = new Set<string>();
  const program = (name: string, source: string): string => {
    if (said === null) return source;
    const { code, untranslated } = weaveComments(source, (key) => {
      const own = said[key];
      if (own !== undefined) used.add(key);
      return own;
    });
    for (const u of untranslated) missing.push(`comments.json → ${name}:${u.line} "${u.key}"`);
    return code;
  };
  lesson.starter = program('starter.ts', english.starter);
  lesson.solution = program('solution.ts', english.solution);
  lesson.programs = Object.fromEntries(Object.entries(english.programs).map(([ref, source]) => [ref, program(ref, source)]));
  for (const key of Object.keys(said ?? {})) if (!used.has(key)) missing.push(`comments.json → "${key}": no English comment says this (changed or removed?)`);
  lesson.lessonScenarios = lesson.lessonScenarios.map((s) => ({
    ...s,
    code: s.program === 'starter' ? lesson.starter : s.program === 'solution' ? lesson.solution : (lesson.programs[s.program] ?? s.code),
  }));

  // Diagrams: the translated drawing where there is one.
  lesson.diagrams = english.diagrams.map((url) => {
    const file = url.split('/').pop() ?? '';
    const own = path.join(/*turbopackIgnore: true*/ process.cwd(), 'public', 'lessons', english.slug, locale, file);
    if (fs.existsSync(own)) return `/lessons/${english.slug}/${locale}/${file}`;
    missing.push(`public/lessons/${english.slug}/${locale}/${file}`);
    return url;
  });
  return { lesson, missing };
}

/**
 * A probe's sentences in the translation's words: a key it lacks stays English (and is listed in `missing`); a key
 * the English lacks, or a sentence whose arguments are not the English one's, is a format error (a value would be
 * lost, or never filled).
 */
export function overlaySays(id: string, english: Readonly<Record<string, string>>, translated: Readonly<Record<string, string>>, file: string, missing: string[]): Record<string, string> {
  for (const [key, template] of Object.entries(translated)) {
    const source = english[key];
    if (source === undefined) throw new LessonFormatError(file, `adversaries.${id}.says.${key}`, 'the English adversary says no such sentence');
    const ours = icuArguments(source).join(', ');
    const theirs = icuArguments(template).join(', ');
    if (ours !== theirs) throw new LessonFormatError(file, `adversaries.${id}.says.${key}`, `names {${theirs}}; the English sentence names {${ours}}`);
  }
  return Object.fromEntries(
    Object.entries(english).map(([key, template]) => {
      const own = translated[key];
      if (own === undefined) missing.push(`texts.json → adversaries.${id}.says.${key}`);
      return [key, own ?? template];
    }),
  );
}

function overlayQuiz(english: Quiz, translated: z.output<typeof quizTranslation>, file: string, missing: string[]): Quiz {
  return {
    ...english,
    questions: english.questions.map((q, i) => {
      const own = translated.questions.find((t) => t.id === q.id);
      if (!own) {
        missing.push(`quiz.json → ${q.id}`);
        return q;
      }
      if (own.choices.length !== q.choices.length || own.choices.some((c, j) => c.correct !== q.choices[j]?.correct)) {
        throw new LessonFormatError(file, `questions.${i}.choices`, 'the choices must be the English ones, in the same order, with the same correct answer');
      }
      return { ...q, prompt: own.prompt, choices: q.choices.map((c, j) => ({ ...c, text: own.choices[j]?.text ?? c.text, why: own.choices[j]?.why ?? c.why })) };
    }),
  };
}

/** The MDX body's skeleton: headings' levels, code blocks, diagrams and callouts, in order. */
function bodyShape(body: string): string {
  const parts: string[] = [];
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^```/.test(line)) {
      if (!fenced) parts.push('code');
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const heading = /^(#{1,6}) /.exec(line);
    if (heading) parts.push(`h${heading[1]?.length}`);
    for (const m of line.matchAll(/<Diagram\b[^>]*\bsrc="([^"]+)"|<Callout\b[^>]*\bkind="([^"]+)"/g)) parts.push(m[1] ? `diagram:${m[1]}` : `callout:${m[2]}`);
  }
  return parts.join(' ');
}
