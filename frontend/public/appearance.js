// Placeholder for builds served without the app: the desktop app answers
// /appearance.js itself with the saved Light/Dark choice (app/appearance.go).
