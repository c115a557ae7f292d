package io.webindex.web;

import io.undertow.Handlers;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;

/**
 * The addresses and what answers them: the JSON API ({@link JsonApi}) under {@code /api/v1/}, the
 * pages ({@link HtmlPages}), the check reports' files ({@link ReportFiles}), the style sheet and
 * the process's figures ({@code /metrics}, {@link WebMetrics}); each counted under its route's
 * name. Every route runs through {@link Failures}; an unknown address is a 404, a method other than
 * GET a 405.
 */
final class Routes {
  private static final String API = JsonApi.PREFIX;

  private final JsonApi json;
  private final HtmlPages pages;
  private final ReportFiles reports;
  private final StyleSheet css;
  private final Failures failures;

  Routes(JsonApi json, HtmlPages pages, ReportFiles reports, StyleSheet css, Failures failures) {
    this.json = json;
    this.pages = pages;
    this.reports = reports;
    this.css = css;
    this.failures = failures;
  }

  HttpHandler handler() {
    RoutingHandler r = Handlers.routing();
    r.get(API + "/top", route("api_top", api(json::top)));
    r.get(API + "/domain/{domain}", route("api_domain", api(json::domain)));
    r.get(API + "/page", route("api_page", api(json::page)));
    r.get(API + "/inlinks", route("api_inlinks", api(json::inlinks)));
    r.get(API + "/history", route("api_history", api(json::history)));
    r.get(API + "/frontier", route("api_frontier", api(json::frontier)));
    r.get(API + "/runs", route("api_runs", api(json::runs)));
    r.get(API + "/checks", route("api_checks", api(json::checks)));
    r.get(API + "/health", route("api_health", api(json::health)));
    r.get("/", route("home", page(pages::top)));
    r.get("/domain/{domain}", route("domain", page(pages::domain)));
    r.get("/page", route("page", page(pages::page)));
    r.get("/search", route("search", page(pages::search)));
    r.get("/frontier", route("frontier", page(pages::frontier)));
    r.get("/runs", route("runs", page(pages::runs)));
    r.get("/checks", route("checks", page(pages::checks)));
    r.get("/checks/{id}/{file}", route("check_file", page(reports::send)));
    r.get("/static/style.css", route("style", css));
    r.get("/metrics", route("metrics", page(WebMetrics::scrape)));
    r.setFallbackHandler(
        route(
            "not_found",
            page(
                ex -> {
                  throw new NotFound("no such address: " + ex.getRequestPath());
                })));
    r.setInvalidMethodHandler(ex -> Responses.sendError(ex, 405, "only GET is answered"));
    return r;
  }

  private static HttpHandler route(String name, HttpHandler h) {
    return WebMetrics.route(name, h);
  }

  /** Failures in JSON. */
  private HttpHandler api(Route route) {
    return failures.safe(true, route);
  }

  /** Failures as an HTML page, or in JSON under {@code /api/}. */
  private HttpHandler page(Route route) {
    return failures.safe(false, route);
  }
}
