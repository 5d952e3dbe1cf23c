// Sign-in shared by plat's pages: the ID token lives in localStorage under `plat_token`; a missing
// or rejected token shows a sign-in form (POST /auth/login) in place of the page.
(function () {
  const KEY = 'plat_token';

  function showLogin(message) {
    const box = document.createElement('form');
    box.id = 'plat-login';
    box.innerHTML =
      '<h2>Sign in to plat</h2><p class="muted"></p>' +
      '<label>Username <input name="username" autocomplete="username" required></label>' +
      '<label>Password <input name="password" type="password" autocomplete="current-password" required></label>' +
      '<button type="submit">Sign in</button>';
    box.querySelector('p').textContent = message || '';
    box.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = JSON.stringify({ username: box.username.value, password: box.password.value });
      const res = await fetch('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) {
        box.querySelector('p').textContent = (data.error && data.error.message) || 'sign-in failed';
        return;
      }
      localStorage.setItem(KEY, data.id_token);
      location.reload();
    });
    document.body.replaceChildren(box);
  }

  /** fetch with the user's token; throws after showing the sign-in form when there is none or it expired. */
  async function api(path, options) {
    const token = localStorage.getItem(KEY);
    if (!token) {
      showLogin('Sign in to see this page.');
      throw new Error('not signed in');
    }
    const opts = Object.assign({}, options || {});
    opts.headers = Object.assign(
      { authorization: 'Bearer ' + token },
      opts.body ? { 'content-type': 'application/json' } : {},
      opts.headers || {},
    );
    const res = await fetch(path, opts);
    if (res.status === 401) {
      localStorage.removeItem(KEY);
      showLogin('Your session expired: sign in again.');
      throw new Error('not signed in');
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((data.error && data.error.message) || res.status + ' ' + res.statusText);
    return data;
  }

  /** The project id of a page under /ui/projects/<id>/..., or ?project=<id>. */
  function projectId() {
    const m = /\/ui\/projects\/([^/]+)/.exec(location.pathname);
    return m ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get('project');
  }

  window.plat = { api, projectId, showLogin, signOut: () => localStorage.removeItem(KEY) };
})();
