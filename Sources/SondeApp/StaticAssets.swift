/// The app's stylesheet and script, compiled into the binary: nothing is fetched from
/// another host and there is no build step. The script only adds what must be live (the
/// loading state of a form sent by fetch, the settings dialog, the New measurement
/// screen's values); every form also works without it.
enum StaticAssets {
    static let stylesheetPath = AppRoute.stylesheet.path
    static let scriptPath = AppRoute.script.path
    static let iconPath = AppRoute.icon.path

    /// The tab's icon: a sine in a circle.
    static let icon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#0b57d0"/>\
        <path d="M5 16c3-9 6-9 8 0s5 9 8 0 4-7 6-2" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>
        """#

    static let stylesheet = #"""
        :root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --line: #c9d0d8; --accent: #0b57d0;
          --accent-ink: #ffffff; --bad: #a1141b; --bad-bg: #fdecec; --ok-bg: #e8f3ea; --ok: #1d5c2a;
          --surface: #ffffff; --page: #f4f6f8; }
        * { box-sizing: border-box; }
        html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 100%; }
        body { margin: 0; background: var(--page); color: var(--ink); line-height: 1.45; }
        .topbar { display: flex; align-items: center; justify-content: space-between; gap: 1rem;
          padding: .6rem 1rem; background: var(--surface); border-bottom: 1px solid var(--line); min-height: 3.2rem; }
        .brand { font-weight: 700; letter-spacing: .02em; }
        main { max-width: 60rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
        h1 { font-size: 1.6rem; margin: .2rem 0 1rem; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 .6rem; }
        .card { background: var(--surface); border: 1px solid var(--line); border-radius: .6rem; padding: 1.25rem; }
        .narrow { max-width: 26rem; margin: 0 auto; }
        .card > h1:first-child, .card > h2:first-child { margin-top: 0; }
        form { margin: 0; }
        label { display: block; font-weight: 600; margin: .8rem 0 .3rem; }
        input[type=email], input[type=password], input[type=text], textarea {
          width: 100%; font: inherit; padding: .6rem .7rem; border: 1px solid #7a8593; border-radius: .4rem;
          background: #fff; color: var(--ink); }
        textarea { min-height: 4.5rem; resize: vertical; }
        .actions { display: flex; flex-wrap: wrap; align-items: center; gap: .6rem; margin-top: 1.1rem; }
        button, .button { font: inherit; font-weight: 600; display: inline-flex; align-items: center; justify-content: center;
          gap: .4rem; min-height: 2.75rem; padding: .5rem 1rem; border-radius: .4rem; border: 1px solid var(--accent);
          background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; }
        button.secondary, .button.secondary { background: #fff; color: var(--accent); }
        button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
        button:disabled, .button[aria-disabled=true] { opacity: .55; cursor: progress; pointer-events: none; }
        button.icon { min-width: 2.75rem; padding: .4rem; background: #fff; color: var(--ink); border-color: var(--line); }
        button.icon svg { width: 1.4rem; height: 1.4rem; }
        :focus-visible { outline: 3px solid #c25400; outline-offset: 2px; }
        a { color: var(--accent); }
        .alert { border: 1px solid var(--bad); background: var(--bad-bg); color: var(--bad); border-radius: .4rem;
          padding: .6rem .8rem; margin: 0 0 1rem; }
        .alert-title { display: block; }
        .notice { border: 1px solid var(--ok); background: var(--ok-bg); color: var(--ok); border-radius: .4rem;
          padding: .6rem .8rem; margin: 0 0 1rem; }
        .spinner { width: 1.4rem; height: 1.4rem; border: 3px solid #b7c3d0; border-top-color: var(--accent);
          border-radius: 50%; animation: spin .8s linear infinite; display: inline-block; }
        .spinner[hidden] { display: none; }
        @keyframes spin { to { transform: rotate(360deg); } }
        .status { display: flex; flex-wrap: wrap; align-items: center; gap: .8rem; justify-content: space-between; }
        .status-text { font-weight: 700; margin: 0; }
        .status .actions { margin-top: 0; }
        .status-text.connected::before, .status-text.busy::before, .status-text.not-connected::before {
          content: ""; display: inline-block; width: .7rem; height: .7rem; border-radius: 50%; margin-right: .45rem; }
        .status-text.connected::before { background: #1d7a36; }
        .status-text.busy::before { background: #b35c00; }
        .status-text.not-connected::before { background: #7a8593; }
        .list { list-style: none; padding: 0; margin: 0; display: grid; gap: .6rem; }
        .list a { display: block; background: var(--surface); border: 1px solid var(--line); border-radius: .5rem;
          padding: .7rem .9rem; color: var(--ink); text-decoration: none; overflow-wrap: anywhere; }
        .list a:hover { border-color: var(--accent); }
        .list .when { color: var(--muted); font-size: .9rem; display: block; }
        .list .values { font-variant-numeric: tabular-nums; display: block; }
        .list .comment { display: block; }
        .empty { color: var(--muted); }
        #device-card p { overflow-wrap: anywhere; }
        .device-failure { color: var(--bad); }
        .pages { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin-top: .8rem; }
        .pages .count { color: var(--muted); }
        table { border-collapse: collapse; width: 100%; background: var(--surface); font-variant-numeric: tabular-nums; }
        caption { text-align: left; font-weight: 700; padding: .4rem 0; }
        th, td { border-bottom: 1px solid var(--line); padding: .35rem .5rem; text-align: left; }
        td.number { text-align: right; }
        th code { color: var(--muted); font-size: .85em; overflow-wrap: anywhere; }
        tbody th { font-weight: 400; }
        td.unmeasured { color: var(--muted); font-style: italic; }
        .tables { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }
        .figures { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); }
        .figures img { width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: .4rem; }
        .plot { margin: 0; min-width: 0; background: var(--surface); border: 1px solid var(--line); border-radius: .4rem;
          padding: .5rem; }
        .plot figcaption { font-weight: 600; }
        .plot svg { display: block; width: 100%; height: auto; }
        .plot-text { margin: .3rem 0 0; color: var(--muted); font-size: .9rem; font-variant-numeric: tabular-nums; }
        dl.details { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
        dl.details dt { font-weight: 700; }
        dl.details dd { margin: 0; overflow-wrap: anywhere; }
        .elapsed { font-variant-numeric: tabular-nums; font-size: 1.1rem; }
        dialog { border: none; border-radius: .8rem; padding: 1.4rem; width: min(24rem, calc(100vw - 2rem));
          box-shadow: 0 12px 40px rgba(0,0,0,.3); opacity: 0; transform: scale(.92);
          transition: opacity .18s ease-out, transform .18s ease-out, overlay .18s allow-discrete, display .18s allow-discrete; }
        dialog[open] { opacity: 1; transform: scale(1); }
        @starting-style { dialog[open] { opacity: 0; transform: scale(.92); } }
        dialog::backdrop { background: rgba(10, 14, 20, 0); transition: background .18s, overlay .18s allow-discrete,
          display .18s allow-discrete; }
        dialog[open]::backdrop { background: rgba(10, 14, 20, .55); }
        @starting-style { dialog[open]::backdrop { background: rgba(10, 14, 20, 0); } }
        dialog h2 { margin-top: 0; }
        dialog .email { overflow-wrap: anywhere; }
        @media (prefers-reduced-motion: reduce) { dialog, dialog::backdrop, .spinner { transition: none; animation-duration: 2s; } }
        @media (min-width: 48rem) { main { padding-top: 2rem; } h1 { font-size: 2rem; } }
        """#

    static let script = #"""
        "use strict";
        (function () {
          function alertBox(form) {
            var box = document.getElementById("alert");
            if (!box) {
              box = document.createElement("div");
              box.id = "alert";
              box.className = "alert";
              box.setAttribute("role", "alert");
              var title = document.createElement("strong");
              title.className = "alert-title";
              var message = document.createElement("span");
              message.className = "alert-message";
              box.appendChild(title);
              box.appendChild(document.createTextNode(" "));
              box.appendChild(message);
              form.parentNode.insertBefore(box, form);
            }
            return box;
          }
          function showAlert(form, alert) {
            var box = alertBox(form);
            box.querySelector(".alert-title").textContent = alert.title;
            box.querySelector(".alert-message").textContent = alert.message;
          }
          function setLoading(form, on) {
            form.querySelectorAll("button").forEach(function (button) { button.disabled = on; });
            form.querySelectorAll("a.button").forEach(function (link) {
              if (on) { link.setAttribute("aria-disabled", "true"); } else { link.removeAttribute("aria-disabled"); }
            });
            var spinner = form.querySelector(".spinner");
            if (spinner) { spinner.hidden = !on; }
            form.setAttribute("aria-busy", on ? "true" : "false");
          }
          // Forms marked data-async: empty required fields are answered at once, without a
          // request; otherwise the form is sent by fetch while the buttons are disabled and
          // the spinner turns, and the answer either navigates or shows the alert.
          document.addEventListener("submit", function (event) {
            var form = event.target;
            if (!form.matches || !form.matches("form[data-async]")) { return; }
            event.preventDefault();
            var empty = Array.prototype.some.call(form.querySelectorAll("[data-required]"), function (field) {
              return field.value.trim() === "";
            });
            if (empty) {
              showAlert(form, { title: "Error", message: "Please fill all fields" });
              return;
            }
            var body = new URLSearchParams(new FormData(form));
            setLoading(form, true);
            fetch(form.action, { method: "POST", body: body, headers: { "Accept": "application/json" },
                                 credentials: "same-origin" })
              .then(function (response) {
                return response.json().then(function (answer) { return answer; });
              })
              .then(function (answer) {
                if (answer.navigate) { window.location.assign(answer.navigate); return; }
                setLoading(form, false);
                if (answer.alert) { showAlert(form, answer.alert); }
              })
              .catch(function () {
                setLoading(form, false);
                showAlert(form, { title: "Error", message: "The server did not answer; try again" });
              });
          });

          // The settings dialog: a modal <dialog> (the browser keeps the focus inside and
          // closes it on Escape); the focus goes back to the button that opened it.
          document.addEventListener("click", function (event) {
            var opener = event.target.closest ? event.target.closest("[data-opens]") : null;
            if (opener) {
              var dialog = document.getElementById(opener.getAttribute("data-opens"));
              if (dialog && !dialog.open) {
                dialog.returnFocusTo = opener;
                dialog.showModal();
              }
              return;
            }
            var closer = event.target.closest ? event.target.closest("[data-closes]") : null;
            if (closer) { closer.closest("dialog").close(); return; }
            if (event.target.tagName === "DIALOG" && event.target.open) { event.target.close(); }
          });
          // Tab and Shift-Tab wrap inside an open dialog (the browser would let the focus
          // leave for its own toolbar after the last button).
          document.addEventListener("keydown", function (event) {
            if (event.key !== "Tab") { return; }
            var dialog = document.querySelector("dialog[open]");
            if (!dialog) { return; }
            var focusable = Array.prototype.filter.call(
              dialog.querySelectorAll("button, a[href], input, textarea, select"),
              function (element) { return !element.disabled && element.getClientRects().length > 0; });
            if (focusable.length === 0) { return; }
            var first = focusable[0];
            var last = focusable[focusable.length - 1];
            var inside = dialog.contains(document.activeElement);
            if (event.shiftKey && (document.activeElement === first || !inside)) {
              event.preventDefault();
              last.focus();
            } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
              event.preventDefault();
              first.focus();
            }
          });
          document.querySelectorAll("dialog").forEach(function (dialog) {
            dialog.addEventListener("close", function () {
              if (dialog.returnFocusTo) { dialog.returnFocusTo.focus(); }
            });
          });

          // New measurement: the values, the waveform and the spectrum five times a second by
          // Server-Sent Events (polling where the stream is refused), the trends once a second.
          var live = document.getElementById("live");
          if (live) {
            var url = live.getAttribute("data-values");
            var elapsed = document.getElementById("elapsed");
            var frames = document.getElementById("frames");
            var trendsLoaded = Date.now();
            var format = function (value) {
              if (value === null || value === undefined) { return "–"; }
              var magnitude = Math.abs(value);
              return magnitude !== 0 && (magnitude < 0.001 || magnitude >= 1e6) ? value.toExponential(3)
                : String(Number(value.toPrecision(4)));
            };
            var clock = function (seconds) {
              var whole = Math.floor(seconds);
              var minutes = Math.floor(whole / 60);
              var rest = whole % 60;
              return minutes + ":" + (rest < 10 ? "0" : "") + rest;
            };
            // The plots: SVG drawn here (no inline style: the page's policy allows none).
            var svgNS = "http://www.w3.org/2000/svg";
            var box = { left: 54, right: 8, top: 8, bottom: 36, width: 380, height: 170 };
            var shape = function (parent, name, attributes, text) {
              var node = document.createElementNS(svgNS, name);
              Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
              if (text !== undefined) { node.textContent = text; }
              parent.appendChild(node);
              return node;
            };
            var step = function (span, count) {
              var raw = span / count;
              var power = Math.pow(10, Math.floor(Math.log10(raw)));
              var unit = raw / power;
              return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
            };
            var label = function (value) { return String(Number(value.toPrecision(3))); };
            // xs and ys: the curve; x and y: {min, max, title, ticks, log}.
            var draw = function (svg, xs, ys, x, y) {
              while (svg.firstChild) { svg.removeChild(svg.firstChild); }
              var plotWidth = box.width - box.left - box.right;
              var plotHeight = box.height - box.top - box.bottom;
              var scale = function (value, axis) {
                return axis.log ? (Math.log10(value) - Math.log10(axis.min)) / (Math.log10(axis.max) - Math.log10(axis.min))
                  : (value - axis.min) / (axis.max - axis.min);
              };
              var px = function (value) { return box.left + scale(value, x) * plotWidth; };
              var py = function (value) {
                var clamped = Math.min(Math.max(value, y.min), y.max);
                return box.top + (1 - scale(clamped, y)) * plotHeight;
              };
              shape(svg, "rect", { x: box.left, y: box.top, width: plotWidth, height: plotHeight, fill: "#ffffff",
                stroke: "#7a8593" });
              x.ticks.forEach(function (tick) {
                var at = px(tick);
                shape(svg, "line", { x1: at, x2: at, y1: box.top, y2: box.top + plotHeight, stroke: "#e3e7ec" });
                shape(svg, "text", { x: at, y: box.top + plotHeight + 13, "text-anchor": "middle", "font-size": 11,
                  fill: "#1b1f24" }, label(tick));
              });
              y.ticks.forEach(function (tick) {
                var at = py(tick);
                shape(svg, "line", { x1: box.left, x2: box.left + plotWidth, y1: at, y2: at, stroke: "#e3e7ec" });
                shape(svg, "text", { x: box.left - 4, y: at + 4, "text-anchor": "end", "font-size": 11,
                  fill: "#1b1f24" }, label(tick));
              });
              shape(svg, "text", { x: box.left + plotWidth / 2, y: box.height - 4, "text-anchor": "middle",
                "font-size": 11, fill: "#1b1f24" }, x.title);
              shape(svg, "text", { x: 0, y: 0, "text-anchor": "middle", "font-size": 11, fill: "#1b1f24",
                transform: "translate(12 " + (box.top + plotHeight / 2) + ") rotate(-90)" }, y.title);
              var points = [];
              for (var i = 0; i < ys.length; i += 1) {
                if (ys[i] !== null && (!x.log || xs[i] > 0)) {
                  points.push(px(xs[i]).toFixed(1) + "," + py(ys[i]).toFixed(1));
                }
              }
              shape(svg, "polyline", { points: points.join(" "), fill: "none", stroke: "#0b57d0",
                "stroke-width": 1.5, "stroke-linejoin": "round" });
            };
            var linearTicks = function (min, max) {
              var size = step(max - min, 4);
              var ticks = [];
              for (var tick = Math.ceil(min / size) * size; tick <= max + size * 1e-6; tick += size) {
                ticks.push(Math.abs(tick) < size * 1e-6 ? 0 : tick);
              }
              return ticks;
            };
            var plotted = function (id, text) {
              var line = document.getElementById(id + "-text");
              if (line) { line.textContent = text; }
              return document.getElementById(id);
            };
            var drawSignal = function (values) {
              var seconds = values.waveform.seconds;
              values.waveform.channels.forEach(function (channel, c) {
                var points = channel.points;
                if (!points.length) { return; }
                var low = Math.min.apply(null, points);
                var high = Math.max.apply(null, points);
                var reach = Math.max(Math.abs(low), Math.abs(high)) * 1.1 || 1;
                var xs = points.map(function (_, i) { return seconds * (i / Math.max(1, points.length - 1) - 1); });
                var svg = plotted("wave-" + c, "The last " + Math.round(seconds * 1000) + " ms of " + channel.name
                  + ": between " + format(low) + " and " + format(high) + ".");
                if (svg) {
                  draw(svg, xs, points, { min: -seconds, max: 0, title: "Time (s)", ticks: linearTicks(-seconds, 0) },
                    { min: -reach, max: reach, title: "Amplitude", ticks: linearTicks(-reach, reach) });
                }
              });
              var hz = values.spectrum.hz;
              values.spectrum.channels.forEach(function (channel, c) {
                if (!channel.db.length || channel.peakHz === null) { return; }
                var top = Math.ceil(Math.max.apply(null, channel.db.filter(function (v) { return v !== null; })) / 10) * 10;
                var peak = 0;
                channel.db.forEach(function (value, i) { if (value !== null && value > channel.db[peak]) { peak = i; } });
                var svg = plotted("spectrum-" + c, "Strongest component of " + channel.name + ": "
                  + format(channel.peakHz) + " Hz, " + channel.db[peak].toFixed(1) + " dB.");
                var lowest = hz.filter(function (f) { return f > 0; })[0] || 1;
                var highest = hz[hz.length - 1];
                var decades = [];
                for (var decade = Math.pow(10, Math.ceil(Math.log10(lowest))); decade <= highest; decade *= 10) {
                  decades.push(decade);
                }
                if (svg) {
                  draw(svg, hz, channel.db,
                    { min: lowest, max: highest, title: "Frequency (Hz)", ticks: decades, log: true },
                    { min: top - 100, max: top, title: "Power (dB)", ticks: linearTicks(top - 100, top) });
                }
              });
            };
            // Saving or discarding ends the capture: trends asked for after that would
            // answer 404, so the images stop loading (an aborted load logs nothing).
            var leaving = false;
            var source = null;
            document.querySelectorAll("form").forEach(function (form) {
              form.addEventListener("submit", function () {
                leaving = true;
                if (source) { source.close(); }
                document.querySelectorAll("img[data-trend]").forEach(function (image) {
                  image.removeAttribute("src");
                });
              });
            });
            // One update, from the stream or a poll; false once the page goes elsewhere.
            var apply = function (values) {
              if (values.navigate) { window.location.assign(values.navigate); return false; }
              // Ended a moment ago: its draft is being written; the next update says where to go.
              if (values.keeping) { return true; }
              elapsed.textContent = clock(values.elapsed);
              frames.textContent = String(values.frames);
              values.channels.forEach(function (channel, c) {
                channel.values.forEach(function (value, k) {
                  var cell = document.getElementById("v-" + c + "-" + k);
                  if (cell) { cell.textContent = value === 0 && cell.dataset.zero ? cell.dataset.zero : format(value); }
                });
              });
              if (values.waveform && values.spectrum) { drawSignal(values); }
              if (Date.now() - trendsLoaded >= 1000) {
                trendsLoaded = Date.now();
                document.querySelectorAll("img[data-trend]").forEach(function (image) {
                  image.src = image.getAttribute("data-trend") + "?t=" + trendsLoaded;
                });
              }
              return true;
            };
            var poll = function () {
              if (leaving) { return; }
              fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
                .then(function (response) {
                  if (response.status !== 200) { window.location.assign("/"); return null; }
                  return response.json();
                })
                .then(function (values) {
                  if (!values || leaving) { return; }
                  if (apply(values)) { window.setTimeout(poll, 250); }
                })
                .catch(function () { window.setTimeout(poll, 1000); });
            };
            var events = live.getAttribute("data-events");
            if (window.EventSource && events) {
              source = new EventSource(events);
              source.addEventListener("update", function (event) {
                if (leaving || !apply(JSON.parse(event.data))) { source.close(); }
              });
              // Refused (too many pages, the session gone): the browser gives up, polling goes on.
              source.addEventListener("error", function () {
                if (source.readyState === EventSource.CLOSED && !leaving) { poll(); }
              });
              window.addEventListener("pagehide", function () { source.close(); });
            } else {
              poll();
            }
          }

          // Main: the device card follows the device (Server-Sent Events), so a user waiting
          // for it sees it free without reloading; the browser reconnects by itself.
          var card = document.getElementById("device-card");
          if (card && window.EventSource) {
            var source = new EventSource(card.getAttribute("data-events"));
            source.addEventListener("device", function (event) {
              var update = JSON.parse(event.data);
              // The first event repeats what the page shows: only a change replaces the card.
              if (update.state === card.getAttribute("data-state")) { return; }
              card.setAttribute("data-state", update.state);
              // Parsed inert (no script runs), then moved in: the server escaped every value.
              var parsed = new DOMParser().parseFromString(update.html, "text/html");
              card.replaceChildren.apply(card, Array.prototype.slice.call(parsed.body.childNodes));
            });
            window.addEventListener("pagehide", function () { source.close(); });
          }
        })();
        """#
}
