import { Link } from 'react-router';

export function meta() {
  return [{ title: 'Floor' }];
}

export default function Home() {
  return (
    <main>
      <h1>Hello</h1>
      <Link to="/">Home</Link>
    </main>
  );
}
