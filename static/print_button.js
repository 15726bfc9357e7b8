// The setup code page's Print button (a script file: the site's Content-Security-Policy allows no
// inline handler).
document.getElementById("print-page")?.addEventListener("click", () => window.print());
