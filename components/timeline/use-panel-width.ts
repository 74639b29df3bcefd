import { useEffect, useState, type RefObject } from 'react';

/** The narrowest a time axis is drawn: below it the ticks would collide (a phone scrolls the panel instead). */
const MIN_WIDTH = 240;

/** The width of a panel that draws a time axis, following it as the page resizes (the timeline and the vote grid). */
export function usePanelWidth(ref: RefObject<HTMLElement | null>, initial = 800): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(MIN_WIDTH, Math.floor(entry.contentRect.width)));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
