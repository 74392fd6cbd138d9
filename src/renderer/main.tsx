import { boot } from './boot';
import './styles.css';

// The first requests go out now; the app's code (React, the store, the screens) loads meanwhile (boot.ts).
boot();
void import('./app-start');
