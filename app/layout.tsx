import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { ProgressProvider } from '@/components/progress/progress-provider';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Lock Lab', template: '%s · Lock Lab' },
  description: 'Learn distributed locking with Redis by breaking it for real.',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" dir="ltr">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ProgressProvider>{children}</ProgressProvider>
      </body>
    </html>
  );
}
