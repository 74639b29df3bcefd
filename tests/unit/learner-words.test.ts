/**
 * One word, one meaning: "seed" is a random seed, and a learner is told so
 * ("random seed 11"); the source articles are the Arabic production write-up
 * and the Norwegian course lesson, never "the seeds". Scans every lesson's
 * files, the reference page and the words of the pages, components and server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { articleSeeds, bareSeeds, codeWords, lessonPassages, referencePassages, sourcePassages, stringValues } from './helpers/learner-text';

describe('the word "seed" in what a learner reads', () => {
  it('catches a bare seed and an article called a seed, and lets a random seed and data keys through', () => {
    expect(bareSeeds('It failed with seed 11.')).toHaveLength(1);
    expect(bareSeeds('as the Norwegian seed puts it')).toHaveLength(1);
    expect(bareSeeds('both seeds say so')).toHaveLength(1);
    expect(bareSeeds('with random seeds 11, 12, 13; random seed 11 replays')).toEqual([]);
    expect(articleSeeds("the Arabic seed's Redlock, in the seeds' styles, sandbox-norwegian-seed.txt")).toHaveLength(3);
    expect(articleSeeds('the same random seed, seeded Math.random')).toEqual([]);
    expect(stringValues({ seed: 11, title: 'with seed 11' }, 'x').flatMap((p) => bareSeeds(p.text))).toHaveLength(1);
    const words = codeWords('x.tsx', "const a = { seed: 1 }; const b = run.seed; const t = `with seed ${b}`; const j = <p>Seed <code>{a.seed}</code></p>;");
    expect(words.flatMap((p) => bareSeeds(p.text))).toHaveLength(1); // the template; JSX text 'Seed ' is one word and no sentence
  });

  it('every lesson file (text, front matter, hints, quiz, scenarios, adversaries, programs) says "random seed"', () => {
    const passages = lessonPassages();
    expect(passages.length).toBeGreaterThan(100);
    expect(passages.flatMap((p) => bareSeeds(p.text).map((s) => `${p.where}: ${s}`))).toEqual([]);
  });

  it('the reference page says "random seed"', () => {
    const [page] = referencePassages();
    expect(page!.text).toMatch(/random seed/);
    expect(bareSeeds(page!.text)).toEqual([]);
  });

  it('the pages, components and server messages say "random seed"', { timeout: 60_000 }, () => {
    const passages = sourcePassages();
    expect(passages.length).toBeGreaterThan(500);
    expect(passages.flatMap((p) => bareSeeds(p.text).map((s) => `${p.where}: ${s}`))).toEqual([]);
  });

  it('nothing in the project (comments, tests, file names) calls a source article a seed', { timeout: 60_000 }, () => {
    // This test and its helper spell the patterns out; every other tracked or new file is read.
    const self = new Set(['tests/unit/learner-words.test.ts', 'tests/unit/helpers/learner-text.ts']);
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '' && !self.has(f));
    const found = files.flatMap((f) => {
      const inName = articleSeeds(f).map((s) => `${f} (its name): ${s}`);
      if (!/\.(tsx?|jsx?|mjs|md|mdx|json|txt|ya?ml|css)$/.test(f) || !fs.existsSync(f)) return inName;
      return [...inName, ...articleSeeds(fs.readFileSync(f, 'utf8')).map((s) => `${f}: ${s}`)];
    });
    expect(found).toEqual([]);
  });
});
