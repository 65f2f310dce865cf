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
        // The samples' own range, padded: a signal riding on an offset (gravity) keeps its shape.
        var pad = (high - low) * 0.1 || Math.abs(high) * 0.1 || 1;
        var xs = points.map(function (_, i) { return seconds * (i / Math.max(1, points.length - 1) - 1); });
        var svg = plotted("wave-" + c, "The last " + Math.round(seconds * 1000) + " ms of " + channel.name
          + ": between " + format(low) + " and " + format(high) + ".");
        if (svg) {
          draw(svg, xs, points, { min: -seconds, max: 0, title: "Time (s)", ticks: linearTicks(-seconds, 0) },
            { min: low - pad, max: high + pad, title: "Amplitude", ticks: linearTicks(low - pad, high + pad) });
        }
      });
      var hz = values.spectrum.hz;
      values.spectrum.channels.forEach(function (channel, c) {
        if (!channel.db.length || channel.peakHz === null) { return; }
        var top = Math.ceil(Math.max.apply(null, channel.db.filter(function (v) { return v !== null; })) / 10) * 10;
        // The value nearest the server's peak (which skips DC's lobe), not the plot's highest.
        var peak = 0;
        hz.forEach(function (f, i) { if (Math.abs(f - channel.peakHz) < Math.abs(hz[peak] - channel.peakHz)) { peak = i; } });
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
