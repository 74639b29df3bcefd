import type { Metadata } from 'next';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import { InstructorConsole } from '@/components/classroom/instructor-console';
import { classroomCourse } from '../../course';

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const t = await getTranslations({ locale: (await params).locale, namespace: 'pages' });
  return { title: t('classroom.instructorTitle') };
}

export default async function InstructorPage({ params }: { params: Promise<{ locale: Locale; code: string }> }) {
  const { locale, code } = await params;
  setRequestLocale(locale);
  return <InstructorConsole code={decodeURIComponent(code)} course={classroomCourse(locale)} />;
}
