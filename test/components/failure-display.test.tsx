// A failure on screen: FailureMessage keeps the technical detail under a closed Details, and a view that throws is
// caught by its boundary, the rest of the window kept, with Try again.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readyWithNoHwid } from '../support/view-start.ts';
import { ViewBoundary } from '../../src/renderer/src/components/ViewBoundary.tsx';
import { FailureMessage } from '../../src/renderer/src/components/FailureMessage.tsx';

beforeEach(readyWithNoHwid);

describe('FailureMessage', () => {
  it('puts technical detail under a closed Details disclosure', () => {
    const { rerender, container } = render(
      <FailureMessage
        failure={{
          ok: false,
          code: 'NOT_FOUND',
          message: 'The service has no key with that value.',
          detail: 'HTTP 404 from GET /api/key/fetch',
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The service has no key with that value.');
    const details = container.querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.textContent).toContain('HTTP 404 from GET /api/key/fetch');
    rerender(<FailureMessage failure={{ ok: false, code: 'NOT_FOUND', message: 'The service has no key with that value.' }} />);
    expect(container.querySelector('details')).toBeNull();
  });
});

describe('a view that throws', () => {
  it('shows a recoverable error in its boundary; Try again renders anew', async () => {
    const user = userEvent.setup();
    let fail = true;
    function Fragile() {
      if (fail) throw new RangeError('Maximum call stack size exceeded');
      return <p>Chart drawn</p>;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div>
        <nav>still here</nav>
        <ViewBoundary name="Overview">
          <Fragile />
        </ViewBoundary>
      </div>,
    );
    expect(screen.getByRole('heading', { name: 'Overview could not be shown' })).toBeTruthy();
    expect(screen.getByText('still here')).toBeTruthy();
    expect(screen.getByText('Maximum call stack size exceeded')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Chart drawn')).toBeTruthy();
    quiet.mockRestore();
  });
});
