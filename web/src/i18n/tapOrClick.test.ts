// @vitest-environment node
/**
 * "Tap" on touch screens, "click" elsewhere: a text that names the gesture says "click"
 * (クリック), and its `_touch` variant (the i18next context the app passes on a coarse pointer)
 * says "tap" (タップ), in both languages; no other text names either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOCALES = fileURLToPath(new URL('../locales', import.meta.url));
// Another part of the app owns the reminders texts; they are checked with it.
const SKIP = new Set(['reminders.json']);

function leaves(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof tree === 'string') out.set(prefix, tree);
  else if (Array.isArray(tree)) tree.forEach((v, i) => leaves(v, `${prefix}.${i}`, out));
  else if (tree && typeof tree === 'object') for (const [k, v] of Object.entries(tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const WORDS = {
  en: { tap: /\btap(s|ping)?\b/i, click: /\bclick(s|ing)?\b/i },
  ja: { tap: /タップ/, click: /クリック/ },
};

const gesture = (text: string, word: RegExp) => text.replace(new RegExp(word.source, 'gi'), '<press>').toLowerCase();

describe('tap on touch screens, click elsewhere', () => {
  for (const lang of ['en', 'ja'] as const) {
    it(`${lang}: every text that names the gesture has its touch variant, and they say click and tap`, () => {
      const { tap, click } = WORDS[lang];
      let pairs = 0;
      for (const file of readdirSync(join(LOCALES, lang)).filter((f) => f.endsWith('.json') && !SKIP.has(f))) {
        const all = leaves(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')));
        for (const [key, text] of all) {
          if (/_touch(\.|$)/.test(key)) {
            // the same text, with "tap" where its base says "click"
            const base = all.get(key.replace(/_touch(?=\.|$)/, ''));
            expect(base, `${lang} ${file} ${key} has no base text`).toBeDefined();
            expect(text, `${lang} ${file} ${key}`).not.toMatch(click);
            expect(base!, `${lang} ${file} ${key}`).not.toMatch(tap);
            expect(gesture(text, tap), `${lang} ${file} ${key}`).toBe(gesture(base!, click));
            if (tap.test(text)) pairs++;
          } else if (tap.test(text) || click.test(text)) {
            // "tap" only in a touch variant, and a "click" text has one (a list's: the list's)
            expect(text, `${lang} ${file} ${key}`).not.toMatch(tap);
            const variant = key.replace(/^(.*?)((\.\d+)?)$/, (_, k: string, i: string) => `${k}_touch${i}`);
            expect(all.has(variant), `${lang} ${file} ${key} has no _touch variant`).toBe(true);
          }
        }
      }
      expect(pairs).toBeGreaterThanOrEqual(7);
    });
  }
});
