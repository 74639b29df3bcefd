/** The node card's line about what the lab did to the node, in the learner's words. */
import { renderToStaticMarkup } from 'react-dom/server';
import { withIntl } from './helpers/intl';
import { describe, expect, it } from 'vitest';
import { NodeIntervention } from '@/components/cluster/node-intervention';

describe('NodeIntervention', () => {
  it('tells what the lab did and why', () => {
    const html = renderToStaticMarkup(
      withIntl(<NodeIntervention intervention={{ t: 1_200, action: 'restarted', cause: 'memory', text: 'Restarted: used 200 MB, over its 192 MB budget' }} />),
    );
    expect(html).toContain('The lab stepped in.');
    expect(html).toContain('Restarted: used 200 MB, over its 192 MB budget');
    expect(html).toContain('data-cause="memory"');
  });

  it('says nothing when the lab never stepped in', () => {
    expect(renderToStaticMarkup(withIntl(<NodeIntervention intervention={null} />))).toBe('');
  });
});
