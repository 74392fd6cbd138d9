import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the boundary holds, in words for the user ("This message", "The conversation list"). */
  what: string;
  children: ReactNode;
  /** Changes when the content changes (a new turn, another conversation): the boundary tries again. */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/**
 * Keeps one broken part from blanking the whole app (issue 15: a hostile import whose text was not a string
 * unmounted everything). The part is replaced by a line saying what could not be shown and why; the rest of the
 * app stays usable. Messages are text, never HTML.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: undefined };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { resetKey: props.resetKey, error: null } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.what} could not be shown:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="render-error" role="alert" data-testid="render-error">
        {this.props.what} could not be shown: {error.message || String(error)}. The rest of Firebrand still works.
      </div>
    );
  }
}
