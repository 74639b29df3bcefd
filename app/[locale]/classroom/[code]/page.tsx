import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import { LearnerView } from '@/components/classroom/learner-view';
import { classroomCourse } from '../course';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('classroom.learnerTitle') };
}

export default async function LearnerPage({ params }: { params: Promise<{ locale: Locale; code: string }> }) {
  const { locale, code } = await params;
  setRequestLocale(locale);
  return <LearnerView code={decodeURIComponent(code)} course={classroomCourse(locale)} />;
}
