import type { Metadata } from 'next';
import { InstructorConsole } from '@/components/classroom/instructor-console';
import { classroomCourse } from '../../course';

export const metadata: Metadata = { title: 'Instructor console' };

export default async function InstructorPage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  return <InstructorConsole code={decodeURIComponent(code)} course={classroomCourse()} />;
}
