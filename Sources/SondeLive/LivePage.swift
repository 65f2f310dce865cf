/// The live page: one self-contained document (no script, style or font from elsewhere)
/// that listens to `/events` and redraws as updates arrive. The server renders the figures;
/// the page only places them, so the page and the report draw the same pictures.
enum LivePage {
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>sonde live</title>
        <link rel="icon" href="data:,">
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.2em; color: #1d2733; background: #fbfcfd; }
        h1 { font-size: 1.3em; margin: 0 0 .3em; }
        #status { color: #5a6673; margin-bottom: 1em; }
        #status.ended { color: #8a4b00; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th, td { padding: .15em .8em; text-align: right; border-bottom: 1px solid #e3e7eb; }
        th:first-child, td:first-child { text-align: left; }
        thead th { border-bottom: 2px solid #b9c2cc; }
        .figures { display: flex; flex-wrap: wrap; gap: 1em; margin-top: 1em; }
        figure { margin: 0; background: #fff; border: 1px solid #e3e7eb; padding: .4em; }
        figure svg { display: block; max-width: 100%; height: auto; }
        figcaption { color: #5a6673; font-size: .9em; }
        </style>
        </head>
        <body>
        <h1>sonde live</h1>
        <div id="status">connecting…</div>
        <table id="values"><thead></thead><tbody></tbody></table>
        <div id="trends" class="figures"></div>
        <div id="spectrum" class="figures"></div>
        <script>
        "use strict";
        const statusLine = document.getElementById("status");
        const head = document.querySelector("#values thead");
        const body = document.querySelector("#values tbody");
        let layout = "";
        let cells = [];

        function format(value) {
          if (value === null) return "–";
          const size = Math.abs(value);
          if (size !== 0 && (size >= 1e6 || size < 1e-3)) return value.toExponential(3);
          return value.toFixed(size >= 100 ? 1 : 4);
        }

        function build(update) {
          head.replaceChildren();
          body.replaceChildren();
          const row = head.insertRow();
          const corner = document.createElement("th");
          corner.textContent = "feature";
          row.appendChild(corner);
          for (const channel of update.channels) {
            const th = document.createElement("th");
            th.textContent = channel;
            row.appendChild(th);
          }
          cells = update.columns.map(function (column) {
            const tr = body.insertRow();
            tr.insertCell().textContent = column;
            return update.channels.map(function () { return tr.insertCell(); });
          });
        }

        function place(container, figures) {
          while (container.children.length > figures.length) container.lastChild.remove();
          figures.forEach(function (figure, index) {
            let box = container.children[index];
            if (!box) {
              box = document.createElement("figure");
              box.appendChild(document.createElement("div"));
              box.appendChild(document.createElement("figcaption"));
              container.appendChild(box);
            }
            box.firstChild.innerHTML = figure.svg;
            box.lastChild.textContent = figure.title;
          });
        }

        function show(update) {
          const key = update.channels.join("\\u0000") + "\\u0001" + update.columns.join("\\u0000");
          if (key !== layout) { build(update); layout = key; }
          update.values.forEach(function (channelValues, channel) {
            channelValues.forEach(function (value, column) { cells[column][channel].textContent = format(value); });
          });
          statusLine.textContent = update.records + " records, latest at " + update.time +
            (update.droppedSamples > 0 ? ", " + update.droppedSamples + " samples dropped" : "");
          if (update.trends) place(document.getElementById("trends"), update.trends);
          if (update.spectrum) place(document.getElementById("spectrum"), update.spectrum);
        }

        // Relative to where the page is mounted (/ for stream --serve, a prefix in the app).
        const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
        const events = new EventSource(base + "events");
        events.addEventListener("update", function (event) { show(JSON.parse(event.data)); });
        events.addEventListener("end", function () {
          events.close();
          statusLine.classList.add("ended");
          statusLine.textContent += " — the stream has ended";
        });
        </script>
        </body>
        </html>
        """
}
