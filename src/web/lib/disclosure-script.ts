/**
 * The menu closes on Escape (focus back on its button), on a tap outside it, and when one of its
 * links is followed; a FAQ answer toggles with its button; a switch (FAQ type, legal document)
 * keeps the reader's scroll position across its page load. Plain ES5, inlined into the page.
 */
export const DISCLOSURE_SCRIPT = `(function(){
function nav(){return document.getElementById('site-nav')}
function btn(){return document.querySelector('button[aria-controls="site-nav"]')}
function setMenu(o){var b=btn(),t=nav();if(!b||!t)return;b.setAttribute('aria-expanded',String(o));t.classList.toggle('site-nav--open',o);var l=b.querySelector('.visually-hidden');if(l)l.textContent=o?'Close menu':'Open menu'}
function isOpen(){var b=btn();return !!b&&b.getAttribute('aria-expanded')==='true'}
document.addEventListener('click',function(e){var el=e.target instanceof Element?e.target:null;var b=el&&el.closest('button[aria-expanded][aria-controls]');
if(b){var t=document.getElementById(b.getAttribute('aria-controls'));if(!t)return;var o=b.getAttribute('aria-expanded')!=='true';if(t.id==='site-nav')setMenu(o);else{b.setAttribute('aria-expanded',String(o));t.hidden=!o}return}
if(isOpen()&&!(el&&el.closest('#site-nav')&&!el.closest('a')))setMenu(false)});
document.addEventListener('keydown',function(e){if(e.key==='Escape'&&isOpen()){setMenu(false);var b=btn();if(b)b.focus()}});
document.addEventListener('submit',function(e){var f=e.target;if(f instanceof HTMLFormElement&&f.getAttribute('action')==='/sign-out'&&window.BroadcastChannel){var c=new BroadcastChannel('bagspace-session');c.postMessage('signed-out');c.close()}if(f instanceof HTMLFormElement&&f.classList.contains('switch'))try{sessionStorage.setItem('switch-scroll',location.pathname+' '+Math.round(scrollY))}catch(x){}});
try{var k=sessionStorage.getItem('switch-scroll');if(k){sessionStorage.removeItem('switch-scroll');var p=k.split(' ');if(p[0]===location.pathname){var y=+p[1];scrollTo(0,y);addEventListener('load',function(){scrollTo(0,y)})}}}catch(x){}
})();`;
