import './globals.css';

/** A path in no language at all: a plain English page with the way back (the lab's pages each have their language). */
export default function NotFound() {
  return (
    <html lang="en" dir="ltr">
      <body>
        <main id="main" style={{ padding: '2rem', maxWidth: '40rem', margin: '0 auto' }}>
          <h1>Page not found</h1>
          <p>
            There is no page here. <a href="/">Back to the course</a>
          </p>
        </main>
      </body>
    </html>
  );
}
