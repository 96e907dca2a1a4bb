import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  name: string;
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/** One per view: a view that throws shows what happened and a way back in its own area; the rest keeps working. */
export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`The ${this.props.name} view failed`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="card view-failed" aria-labelledby="view-failed-title">
        <h1 id="view-failed-title">{this.props.name} could not be shown</h1>
        <p role="alert" className="error">
          Something in this view went wrong. Your data and the other views are not affected.
        </p>
        <button type="button" className="primary" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
        <details>
          <summary>Details</summary>
          <pre>{error.message}</pre>
        </details>
      </section>
    );
  }
}
