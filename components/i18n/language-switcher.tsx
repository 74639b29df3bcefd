'use client';

/**
 * The language switcher on every page: the same page in another language.
 * A link per language (not a select), so it works before the script loads and
 * reads as a list of choices to a screen reader. The learner's code and
 * progress live in this browser's storage, keyed by lesson, not by language,
 * so switching keeps them; the choice itself is remembered by a cookie.
 */
import { useLocale, useTranslations } from 'next-intl';
import { Link, usePathname } from '@/i18n/navigation';
import { LANGUAGE_NAMES, LOCALES } from '@/i18n/routing';
import styles from './language-switcher.module.css';

export function LanguageSwitcher() {
  const t = useTranslations('common');
  const current = useLocale();
  const pathname = usePathname();
  return (
    <nav aria-label={t('language')} className={styles.switcher}>
      <ul>
        {LOCALES.map((locale) => (
          <li key={locale}>
            <Link href={pathname} locale={locale} lang={locale} hrefLang={locale} aria-current={locale === current ? 'true' : undefined} className={styles.choice}>
              {LANGUAGE_NAMES[locale]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
