export function App() {
  return (
    <main className="welcome" data-app-state="ready">
      <h1>Keydesk</h1>
      <p>Admin for license keys and usage tracking.</p>
      <p>
        This build ships the embedded sandbox service. Start it with <code>npm run sandbox -- serve</code>; the admin
        views come with the desktop core.
      </p>
    </main>
  );
}
