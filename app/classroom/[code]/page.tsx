import type { Metadata } from 'next';
import { LearnerView } from '@/components/classroom/learner-view';
import { classroomCourse } from '../course';

export const metadata: Metadata = { title: 'Class' };

export default async function LearnerPage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  return <LearnerView code={decodeURIComponent(code)} course={classroomCourse()} />;
}
