import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

// The same chunking as the app's vite.config.ts, so the two builds differ only in app code.
export default defineConfig({
  plugins: [reactRouter()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        advancedChunks: {
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
        },
      },
    },
  },
});
