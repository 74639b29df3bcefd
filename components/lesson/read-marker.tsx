'use client';
/**
 * Put at the end of a lesson's text: once it has been on screen (the learner
 * scrolled through the text, or the text fits without scrolling), the lesson
 * counts as read in their progress.
 */
import { useEffect, useRef } from 'react';
import { useProgress, useProgressActions } from '@/components/progress/progress-provider';

export function ReadMarker({ slug }: { slug: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { markRead } = useProgressActions();
  const hydrated = useProgress((s) => s.hydrated);
  const read = useProgress((s) => s.lessons[slug]?.read ?? false);

  useEffect(() => {
    const element = ref.current;
    // Wait for the saved progress: marking before it is read back would be overwritten by it.
    if (!element || !hydrated || read) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        markRead(slug);
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hydrated, read, markRead, slug]);

  return <div ref={ref} style={{ blockSize: 1 }} data-testid="read-marker" data-read={read || undefined} aria-hidden="true" />;
}
