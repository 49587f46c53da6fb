/**
 * ESLint rule `testing/no-sleep`: a test waits for the thing it needs, never for a fixed time
 * (tests/helpers/wait.ts). It refuses, in test code:
 * - `page.waitForTimeout(ms)` (Playwright's sleep),
 * - a call of a function named `sleep` or `delay`,
 * - `new Promise((resolve) => setTimeout(resolve, ms))` and its forms: a timer that is the only way
 *   the promise it was made in resolves. A deadline is allowed: a timer that rejects, a promise that
 *   something else resolves too (an event), or one raced against the awaited thing (`Promise.race`),
 * - `setTimeout` of `node:timers/promises`, by whatever local name.
 * A line may keep one when it, or the line above, carries a comment saying why time itself is the
 * subject: `// Time is the subject: the kill lands at a random moment of the write.`
 */
const REASON = /time is the subject:\s*\S/i;

/** @type {import('eslint').Rule.RuleModule} */
export const noSleep = {
  meta: {
    type: 'problem',
    docs: { description: 'Tests wait for an effect (tests/helpers/wait.ts), never for a fixed time.' },
    schema: [],
    messages: {
      sleep:
        '{{what}} waits for time, not for an effect: wait for the thing the test needs (waitFor in tests/helpers/wait.ts), or say why time is the subject in a comment on this line or the one above ("Time is the subject: …").',
    },
  },
  create(context) {
    const source = context.sourceCode;
    // Lines a reason covers: its comment's, and those of the line comments that run on from it.
    const explained = new Set();
    let run = -1;
    for (const comment of source.getAllComments()) {
      const continues = comment.type === 'Line' && comment.loc.start.line === run + 1;
      if (REASON.test(comment.value) || continues) {
        for (let line = comment.loc.start.line; line <= comment.loc.end.line; line++) explained.add(line);
        run = comment.loc.end.line;
      }
    }
    const timerNames = new Set();
    const report = (node, what) => {
      const line = node.loc.start.line;
      if (explained.has(line) || explained.has(line - 1)) return;
      context.report({ node, messageId: 'sleep', data: { what } });
    };
    /** The executor of `new Promise(executor)` that encloses `node`, if it is the nearest function. */
    const promiseExecutor = (node) => {
      for (let at = node.parent; at; at = at.parent) {
        if (at.type === 'ArrowFunctionExpression' || at.type === 'FunctionExpression') {
          const parent = at.parent;
          const isExecutor =
            parent?.type === 'NewExpression' &&
            parent.callee.type === 'Identifier' &&
            parent.callee.name === 'Promise' &&
            parent.arguments[0] === at;
          return isExecutor ? at : undefined;
        }
      }
      return undefined;
    };
    /** Whether `name` is used in `root` outside `inside` (the promise has another way to resolve). */
    const usedElsewhere = (root, inside, name) => {
      let found = false;
      const visit = (n) => {
        if (found || !n || typeof n.type !== 'string' || n === inside) return;
        if (n.type === 'Identifier' && n.name === name) found = true;
        for (const key of Object.keys(n)) {
          if (key === 'parent' || key === 'params') continue;
          const child = n[key];
          if (Array.isArray(child)) child.forEach(visit);
          else if (child && typeof child === 'object') visit(child);
        }
      };
      visit(root.body);
      return found;
    };
    /** Whether the `new Promise` is one of the promises of a `Promise.race([...])`. */
    const raced = (promise) => {
      const list = promise.parent;
      const call = list?.parent;
      return (
        list?.type === 'ArrayExpression' &&
        call?.type === 'CallExpression' &&
        call.callee.type === 'MemberExpression' &&
        call.callee.object.type === 'Identifier' &&
        call.callee.object.name === 'Promise' &&
        call.callee.property.name === 'race'
      );
    };
    const resolves = (callback, resolveName) => {
      if (!callback || !resolveName) return false;
      if (callback.type === 'Identifier') return callback.name === resolveName;
      if (callback.type !== 'ArrowFunctionExpression' && callback.type !== 'FunctionExpression') return false;
      let found = false;
      const visit = (n) => {
        if (found || !n || typeof n.type !== 'string') return;
        if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === resolveName)
          found = true;
        for (const key of Object.keys(n)) {
          if (key === 'parent') continue;
          const child = n[key];
          if (Array.isArray(child)) child.forEach(visit);
          else if (child && typeof child === 'object') visit(child);
        }
      };
      visit(callback.body);
      return found;
    };
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'node:timers/promises' && node.source.value !== 'timers/promises') return;
        for (const spec of node.specifiers) {
          if (spec.type === 'ImportSpecifier' && spec.imported.name === 'setTimeout') timerNames.add(spec.local.name);
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'waitForTimeout') {
          report(node, 'waitForTimeout');
          return;
        }
        if (callee.type !== 'Identifier') return;
        if (callee.name === 'sleep' || callee.name === 'delay') {
          report(node, `${callee.name}()`);
        } else if (timerNames.has(callee.name)) {
          report(node, 'setTimeout of node:timers/promises');
        } else if (callee.name === 'setTimeout') {
          const executor = promiseExecutor(node);
          const resolveParam = executor?.params[0];
          if (
            resolveParam?.type === 'Identifier' &&
            resolves(node.arguments[0], resolveParam.name) &&
            !usedElsewhere(executor, node, resolveParam.name) &&
            !raced(executor.parent)
          ) {
            report(node, 'A promise resolved by setTimeout');
          }
        }
      },
    };
  },
};

export default { rules: { 'no-sleep': noSleep } };
