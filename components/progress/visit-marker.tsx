'use client';
/**
 * Put on a lesson's page: opening the lesson makes it the one the course
 * index offers to continue. Marked once the saved progress has been read, or
 * reading it back would overwrite the mark.
 */
import { useEffect } from 'react';
import { useProgress, useProgressActions } from './progress-provider';

export function VisitMarker({ slug }: { slug: string }) {
  const { markVisited } = useProgressActions();
  const hydrated = useProgress((s) => s.hydrated);
  useEffect(() => {
    if (hydrated) markVisited(slug);
  }, [hydrated, markVisited, slug]);
  return null;
}
