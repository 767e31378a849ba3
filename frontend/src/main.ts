import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { installNavigationGuard } from './lib/navguard';

// Before anything is rendered: no activation of a URL reaches the webview.
installNavigationGuard(document);

const app = mount(App, { target: document.getElementById('app')! });

export default app;
