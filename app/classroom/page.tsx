import type { Metadata } from 'next';
import Link from 'next/link';
import { CreateClassroom } from '@/components/classroom/create-classroom';
import styles from '@/components/classroom/classroom.module.css';

export const metadata: Metadata = { title: 'Start or join a class' };

export default function CreateClassroomPage() {
  return (
    <main id="main" className={styles.narrowPage}>
      <nav className={styles.crumbs} aria-label="Breadcrumb">
        <Link href="/">Lock Lab</Link>
      </nav>
      <h1 className={styles.pageTitle}>Start or join a class</h1>
      <p className={styles.lead}>
        A class has its own shared lab. You break it from the instructor console; every learner who joins with the code sees the same
        failure, live, on their own screen, and you see how far each of them has got in the course.
      </p>
      <CreateClassroom />
    </main>
  );
}
