package io.webindex.mr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.Source;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.GenericOptionsParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The Oozie application in {@code oozie/}: its workflow and coordinator validate against the
 * official schemas of {@code oozie-client} 5.2.1 (from the class path), every {@code ${…}} is
 * declared or an Oozie built-in, the coordinator hands the workflow every property it needs, the
 * workflow's graph is sound, and every java action's main class is in the shaded job jar and
 * accepts the arguments the workflow gives it (parsed by the Tool's own {@code parseArgs}, after
 * Hadoop's generic options, with the example values of {@code job.properties.example}).
 *
 * <p>An {@code *IT}: it runs after {@code package}, which builds the job jar under {@code target/}.
 */
class OozieWorkflowIT {
  private static final String WF_NS = "uri:oozie:workflow:1.0";
  private static final String COORD_NS = "uri:oozie:coordinator:0.5";

  /** The official schemas: the workflow's, the coordinator's, and the action schemas used. */
  private static final List<String> XSDS =
      List.of("oozie-workflow-1.0.xsd", "oozie-coordinator-0.5.xsd", "email-action-0.2.xsd");

  private static final Pattern EL = Pattern.compile("\\$\\{([^}]*)}");
  private static final Pattern EL_TOKEN =
      Pattern.compile(
          "'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|([A-Za-z_][\\w.]*(?::\\w+)?)(\\s*\\()?");
  private static final Pattern CONF_READ =
      Pattern.compile("(?:wf|coord):conf\\(\\s*'([^']*)'\\s*\\)");
  private static final Set<String> EL_KEYWORDS =
      Set.of(
          "eq",
          "ne",
          "lt",
          "gt",
          "le",
          "ge",
          "and",
          "or",
          "not",
          "empty",
          "true",
          "false",
          "null",
          "div",
          "mod",
          "instanceof");

  /** The Oozie EL functions this application may use, by definition (workflow, coordinator). */
  private static final Set<String> WF_FUNCTIONS =
      Set.of(
          "wf:id",
          "wf:name",
          "wf:appPath",
          "wf:conf",
          "wf:user",
          "wf:group",
          "wf:callback",
          "wf:transition",
          "wf:lastErrorNode",
          "wf:errorCode",
          "wf:errorMessage",
          "wf:run",
          "wf:actionData",
          "wf:actionExternalId",
          "wf:actionTrackerUri",
          "wf:actionExternalStatus");

  private static final Set<String> COORD_FUNCTIONS =
      Set.of(
          "coord:formatTime",
          "coord:nominalTime",
          "coord:actualTime",
          "coord:dateOffset",
          "coord:dateTzOffset",
          "coord:days",
          "coord:months",
          "coord:hours",
          "coord:minutes",
          "coord:user",
          "coord:name",
          "coord:conf",
          "coord:actionId");

  private static Path oozieDir;
  private static Schema schema;
  private static Document workflow;
  private static Document coordinator;
  private static Properties example;

  @BeforeAll
  static void load() throws Exception {
    Path module = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath();
    oozieDir = module.resolveSibling("oozie").normalize();
    assertTrue(Files.isDirectory(oozieDir), "no oozie/ directory at " + oozieDir);
    schema = officialSchema();
    workflow = parse(oozieDir.resolve("workflow.xml"));
    coordinator = parse(oozieDir.resolve("coordinator.xml"));
    example = new Properties();
    try (Reader r = Files.newBufferedReader(oozieDir.resolve("job.properties.example"))) {
      example.load(r);
    }
  }

  // ---------------------------------------------------------------- the official schemas

  /**
   * The XSDs from the oozie-client jar on the class path, each with its system id (its jar URL) so
   * that {@code oozie-common-1.0.xsd}, included by the workflow schema, resolves beside it.
   */
  private static Schema officialSchema() throws SAXException {
    List<Source> sources = new ArrayList<>();
    for (String xsd : XSDS) {
      URL url = OozieWorkflowIT.class.getClassLoader().getResource(xsd);
      assertNotNull(url, xsd + " is not on the class path (test dependency oozie-client 5.2.1)");
      assertTrue(
          url.toExternalForm().contains("oozie-client-5.2.1.jar!/"),
          xsd + " must come from oozie-client-5.2.1.jar, not " + url);
      sources.add(new StreamSource(url.toExternalForm()));
    }
    SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    return f.newSchema(sources.toArray(new Source[0]));
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(file.toFile());
  }

  private static void validate(Document doc, String what) throws IOException {
    try {
      schema.newValidator().validate(new DOMSource(doc));
    } catch (SAXException e) {
      fail(what + " does not validate against the Oozie 5.2.1 schemas: " + e.getMessage());
    }
  }

  @Test
  void theWorkflowAndTheCoordinatorValidateAgainstTheOfficialSchemas() throws Exception {
    assertEquals(WF_NS, workflow.getDocumentElement().getNamespaceURI());
    assertEquals("workflow-app", workflow.getDocumentElement().getLocalName());
    validate(workflow, "oozie/workflow.xml");
    assertEquals(COORD_NS, coordinator.getDocumentElement().getNamespaceURI());
    assertEquals("coordinator-app", coordinator.getDocumentElement().getLocalName());
    validate(coordinator, "oozie/coordinator.xml");
  }

  @Test
  void theSchemaCheckRefusesABrokenDefinition() throws Exception {
    // a java action without its main class, an unknown coordinator control, a misspelt email field
    Document noMain = parse(oozieDir.resolve("workflow.xml"));
    Element main = (Element) noMain.getElementsByTagNameNS(WF_NS, "main-class").item(0);
    main.getParentNode().removeChild(main);
    assertThrows(SAXException.class, () -> schema.newValidator().validate(new DOMSource(noMain)));

    Document badControl = parse(oozieDir.resolve("coordinator.xml"));
    Element controls = (Element) badControl.getElementsByTagNameNS(COORD_NS, "controls").item(0);
    controls.appendChild(badControl.createElementNS(COORD_NS, "parallelism"));
    assertThrows(
        SAXException.class, () -> schema.newValidator().validate(new DOMSource(badControl)));

    Document badMail = parse(oozieDir.resolve("workflow.xml"));
    Element to =
        (Element) badMail.getElementsByTagNameNS("uri:oozie:email-action:0.2", "to").item(0);
    assertNotNull(to, "the workflow has an email action");
    badMail.renameNode(to, "uri:oozie:email-action:0.2", "recipient");
    assertThrows(SAXException.class, () -> schema.newValidator().validate(new DOMSource(badMail)));
  }

  // ---------------------------------------------------------------- properties and EL

  /** Every {@code ${…}} expression in attribute values and text (not comments) of a document. */
  private static List<String> expressions(Document doc) {
    List<String> out = new ArrayList<>();
    collect(doc.getDocumentElement(), out);
    return out;
  }

  private static void collect(Node n, List<String> out) {
    if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
      addExpressions(n.getNodeValue(), out);
    }
    NamedNodeMap attrs = n.getAttributes();
    if (attrs != null) {
      for (int i = 0; i < attrs.getLength(); i++) {
        addExpressions(((Attr) attrs.item(i)).getValue(), out);
      }
    }
    for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c.getNodeType() != Node.COMMENT_NODE) {
        collect(c, out);
      }
    }
  }

  private static void addExpressions(String text, List<String> out) {
    Matcher m = EL.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    assertFalse(
        EL.matcher(text).replaceAll("").contains("${"), "an unterminated ${ in: " + text.strip());
  }

  /** The variables an EL expression reads and the functions it calls. */
  private static void references(String expr, Set<String> variables, Set<String> functions) {
    // a property read through wf:conf('name') / coord:conf('name') (undefined gives '', where
    // ${name} fails: Oozie drops empty values when it stores a configuration) is a reference too
    Matcher conf = CONF_READ.matcher(expr);
    while (conf.find()) {
      variables.add(conf.group(1));
    }
    Matcher m = EL_TOKEN.matcher(expr);
    while (m.find()) {
      String name = m.group(1);
      if (name == null) {
        continue; // a string literal
      }
      if (m.group(2) != null) {
        functions.add(name);
      } else if (!EL_KEYWORDS.contains(name) && !name.matches("\\d.*")) {
        variables.add(name);
      }
    }
  }

  /** name → default value (null when the property is required), from {@code <parameters>}. */
  private static Map<String, String> parameters(Document doc, String ns) {
    Map<String, String> out = new LinkedHashMap<>();
    NodeList params = doc.getElementsByTagNameNS(ns, "parameters");
    if (params.getLength() == 0) {
      return out;
    }
    for (Element p : children((Element) params.item(0), "property")) {
      Element value = child(p, "value");
      out.put(text(child(p, "name")), value == null ? null : value.getTextContent());
    }
    return out;
  }

  @Test
  void everyReferenceIsDeclaredOrAnOozieBuiltIn() {
    checkReferences(workflow, WF_NS, "oozie/workflow.xml", WF_FUNCTIONS);
    checkReferences(coordinator, COORD_NS, "oozie/coordinator.xml", COORD_FUNCTIONS);
  }

  private static void checkReferences(Document doc, String ns, String what, Set<String> builtIns) {
    Set<String> declared = parameters(doc, ns).keySet();
    Set<String> used = new TreeSet<>();
    Set<String> functions = new TreeSet<>();
    for (String e : expressions(doc)) {
      references(e, used, functions);
    }
    assertFalse(used.isEmpty(), what + " uses no property at all?");
    Set<String> undeclared = new TreeSet<>(used);
    undeclared.removeAll(declared);
    assertEquals(Set.of(), undeclared, what + ": used in ${…} but not declared in <parameters>");
    Set<String> unused = new TreeSet<>(declared);
    unused.removeAll(used);
    assertEquals(Set.of(), unused, what + ": declared in <parameters> but never used");
    Set<String> unknown = new TreeSet<>(functions);
    unknown.removeAll(builtIns);
    assertEquals(Set.of(), unknown, what + ": EL functions that are not Oozie built-ins here");
  }

  @Test
  void theCoordinatorGivesTheWorkflowEveryPropertyAndTheExampleEveryRequiredOne() {
    Map<String, String> wfParams = parameters(workflow, WF_NS);
    Map<String, String> coordParams = parameters(coordinator, COORD_NS);
    Element wfAction = (Element) coordinator.getElementsByTagNameNS(COORD_NS, "workflow").item(0);
    Set<String> passed = new LinkedHashSet<>();
    for (Element p : children(child(wfAction, "configuration"), "property")) {
      assertTrue(passed.add(text(child(p, "name"))), "passed twice: " + text(child(p, "name")));
    }
    // every workflow property reaches the workflow, also the defaulted ones (their values are the
    // coordinator's, which job.properties may override), and nothing else
    assertEquals(new TreeSet<>(wfParams.keySet()), new TreeSet<>(passed));
    // the coordinator and the workflow agree on the defaults
    for (Map.Entry<String, String> e : wfParams.entrySet()) {
      if (!e.getKey().equals("runId")) {
        assertTrue(coordParams.containsKey(e.getKey()), "coordinator lacks " + e.getKey());
        assertEquals(e.getValue(), coordParams.get(e.getKey()), "default of " + e.getKey());
      }
    }
    // the example sets every required coordinator property and every setting it makes is used
    for (Map.Entry<String, String> e : coordParams.entrySet()) {
      if (e.getValue() == null) {
        assertTrue(
            example.containsKey(e.getKey()),
            "job.properties.example lacks the required " + e.getKey());
      }
    }
    Set<String> referencedInExample = new HashSet<>();
    for (String v : example.stringPropertyNames()) {
      Matcher m = EL.matcher(example.getProperty(v));
      while (m.find()) {
        referencedInExample.add(m.group(1));
      }
    }
    for (String key : example.stringPropertyNames()) {
      assertTrue(
          key.startsWith("oozie.")
              || coordParams.containsKey(key)
              || referencedInExample.contains(key),
          "job.properties.example sets " + key + ", which nothing reads");
    }
    assertTrue(
        example.getProperty("oozie.coord.application.path").endsWith("/coordinator.xml"),
        "the example submits the coordinator");
  }

  @Test
  void theCoordinatorRunsOneCycleAtATimeTheNewestFirstWithATimeout() {
    Element controls = (Element) coordinator.getElementsByTagNameNS(COORD_NS, "controls").item(0);
    assertEquals("1", text(child(controls, "concurrency")));
    assertEquals("LAST_ONLY", text(child(controls, "execution")));
    assertNotNull(child(controls, "timeout"), "a timeout");
    Element root = coordinator.getDocumentElement();
    for (String a : List.of("frequency", "start", "end")) {
      assertTrue(root.getAttribute(a).matches("\\$\\{\\w+}"), a + " is configurable");
    }
  }

  // ---------------------------------------------------------------- the workflow graph

  @Test
  void theWorkflowGraphIsSound() {
    Element root = workflow.getDocumentElement();
    Map<String, List<String>> next = new LinkedHashMap<>();
    Map<String, String> kinds = new HashMap<>();
    String start = null;
    for (Element n : children(root, null)) {
      String kind = n.getLocalName();
      switch (kind) {
        case "start" -> start = n.getAttribute("to");
        case "action" -> {
          next.put(
              n.getAttribute("name"),
              List.of(child(n, "ok").getAttribute("to"), child(n, "error").getAttribute("to")));
          kinds.put(n.getAttribute("name"), "action");
        }
        case "decision" -> {
          List<String> to = new ArrayList<>();
          for (Element c : children(child(n, "switch"), null)) {
            to.add(c.getAttribute("to"));
          }
          next.put(n.getAttribute("name"), to);
          kinds.put(n.getAttribute("name"), "decision");
        }
        case "kill", "end" -> {
          next.put(n.getAttribute("name"), List.of());
          kinds.put(n.getAttribute("name"), kind);
        }
        case "parameters", "global" -> {}
        default -> fail("unexpected node " + kind);
      }
    }
    assertNotNull(start);
    for (Map.Entry<String, List<String>> e : next.entrySet()) {
      for (String to : e.getValue()) {
        assertTrue(next.containsKey(to), e.getKey() + " goes to a node that does not exist: " + to);
      }
    }
    // every node reachable, and no cycle (Oozie refuses loops)
    Set<String> seen = new HashSet<>();
    assertAcyclic(start, next, seen, new LinkedHashSet<>());
    Set<String> unreachable = new TreeSet<>(next.keySet());
    unreachable.removeAll(seen);
    assertEquals(Set.of(), unreachable, "nodes no path reaches");
    // every wf:errorCode('x') / wf:errorMessage('x') names an action
    Matcher m =
        Pattern.compile("wf:error(?:Code|Message)\\('([^']*)'\\)")
            .matcher(String.join("\n", expressions(workflow)));
    while (m.find()) {
      assertEquals("action", kinds.get(m.group(1)), "wf:error…('" + m.group(1) + "')");
    }
  }

  private static void assertAcyclic(
      String node, Map<String, List<String>> next, Set<String> seen, LinkedHashSet<String> path) {
    assertFalse(path.contains(node), "a cycle: " + path + " → " + node);
    if (!seen.add(node)) {
      return;
    }
    path.add(node);
    for (String to : next.get(node)) {
      assertAcyclic(to, next, seen, path);
    }
    path.remove(node);
  }

  @Test
  void theCycleChecksTheServedTableAndFailsWithTheReportsPath() {
    Map<String, Element> actions = actions();
    List<String> check = args(actions.get("check"));
    List<String> recheck = args(actions.get("recheck"));
    assertTrue(check.contains("--served") && recheck.contains("--served"));
    String recheckOut = recheck.get(recheck.indexOf("--out") + 1);
    assertTrue(recheckOut.startsWith("${reportDir}/${runId}/"), recheckOut);
    assertFalse(recheckOut.equals(check.get(check.indexOf("--out") + 1)), "two reports, two dirs");
    // the repair is proven against a fresh recompute, not against the run the served table now
    // is (after the cut-over, that would compare the served table with itself)
    List<String> verify = args(actions.get("verify-recompute"));
    String verifyRun = verify.get(verify.indexOf("--run") + 1);
    assertEquals("${runId}_verify", verifyRun);
    assertEquals(verifyRun, recheck.get(recheck.indexOf("--run") + 1));
    assertFalse(
        check.get(check.indexOf("--run") + 1).equals(verifyRun), "the recheck's truth is new");
    String killMessage = killMessage("still-inconsistent");
    assertTrue(
        killMessage.contains(recheckOut + "/check.html"),
        "the kill message names the report: " + killMessage);
    // the decision after the check routes exit code 1 (INCONSISTENT) to the repair
    assertTrue(
        expressions(workflow).contains("wf:errorCode('check') eq '1'"),
        "check-outcome routes on the check's exit code 1");
    assertTrue(
        expressions(workflow).contains("wf:errorCode(wf:lastErrorNode()) eq '3'"),
        "reconcile-failed routes on reconcile's exit code 3");
    // only the verdict 1 of a check leads to the repair; nothing else routes on 1, and every
    // step's transient failure (3) ends in the kill node that says "rerun later"
    for (String e : expressions(workflow)) {
      if (e.contains("eq '1'")) {
        assertTrue(
            e.equals("wf:errorCode('check') eq '1'") || e.equals("wf:errorCode('recheck') eq '1'"),
            "only a check's verdict routes on 1: " + e);
      }
    }
    for (String step : List.of("recompute", "check", "verify-recompute", "recheck")) {
      assertTrue(
          expressions(workflow).contains("wf:errorCode('" + step + "') eq '3'"),
          step + "'s exit code 3 (transient) is routed");
    }
    assertTrue(killMessage("unavailable").contains("exit code 3"), killMessage("unavailable"));
  }

  private static String killMessage(String name) {
    for (Element k : children(workflow.getDocumentElement(), "kill")) {
      if (k.getAttribute("name").equals(name)) {
        return text(child(k, "message"));
      }
    }
    throw new AssertionError("no kill node " + name);
  }

  // ---------------------------------------------------------------- main classes and arguments

  private static Map<String, Element> actions() {
    Map<String, Element> out = new LinkedHashMap<>();
    for (Element a : children(workflow.getDocumentElement(), "action")) {
      out.put(a.getAttribute("name"), a);
    }
    return out;
  }

  private static Element java(Element action) {
    return child(action, "java");
  }

  private static List<String> args(Element action) {
    List<String> out = new ArrayList<>();
    for (Element a : children(java(action), "arg")) {
      out.add(text(a));
    }
    return out;
  }

  /** The example value of every workflow property: job.properties.example, resolved. */
  private static Map<String, String> exampleValues() {
    Map<String, String> values = new HashMap<>();
    parameters(workflow, WF_NS)
        .forEach(
            (k, v) -> {
              if (v != null) {
                values.put(k, v);
              }
            });
    for (String k : example.stringPropertyNames()) {
      values.put(k, example.getProperty(k));
    }
    // the run id the coordinator gives the first cycle: its nominal time as yyyyMMddHHmm
    String start = example.getProperty("start");
    values.put(
        "runId",
        OffsetDateTime.parse(start.replace("Z", ":00Z"))
            .format(DateTimeFormatter.ofPattern("yyyyMMddHHmm")));
    Map<String, String> resolved = new HashMap<>();
    for (String k : values.keySet()) {
      resolved.put(k, resolve(values.get(k), values, 0));
    }
    return resolved;
  }

  private static String resolve(String v, Map<String, String> values, int depth) {
    assertTrue(depth < 10, "properties refer to each other in a loop: " + v);
    Matcher m = EL.matcher(v);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = m.group(1).strip();
      assertTrue(values.containsKey(name), "no example value for ${" + name + "}");
      m.appendReplacement(
          sb, Matcher.quoteReplacement(resolve(values.get(name), values, depth + 1)));
    }
    return m.appendTail(sb).toString();
  }

  private static String substitute(String arg, Map<String, String> values) {
    Matcher m = EL.matcher(arg);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      assertTrue(
          name.matches("\\w+"),
          "an argument may only use plain properties (no functions), so that its value is known: "
              + arg);
      assertTrue(values.containsKey(name), "no example value for ${" + name + "}");
      m.appendReplacement(sb, Matcher.quoteReplacement(values.get(name)));
    }
    return m.appendTail(sb).toString();
  }

  /**
   * A class loader of the application's lib/ (the two job jars) and what Hadoop's class path gives
   * it only: the client and the logging API (Hadoop brings slf4j-api with its binding; the jars
   * leave it out, see their poms). The jars must bring everything else.
   */
  private static URLClassLoader libLoader(List<Path> jars) throws IOException {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars) {
      urls.add(jar.toUri().toURL());
    }
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      String name = Paths.get(entry).getFileName().toString();
      if (name.startsWith("hadoop-client-api-")
          || name.startsWith("hadoop-client-runtime-")
          || name.startsWith("slf4j-api-")) {
        urls.add(Paths.get(entry).toUri().toURL());
      }
    }
    assertEquals(
        jars.size() + 3,
        urls.size(),
        "the job jars, hadoop-client-api/-runtime, slf4j-api: " + urls);
    return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }

  /**
   * The jars of the application's lib/: mr-jobs' job jar (the recompute, the check) and fluo-jobs'
   * (the Fluo Tools, the check's Fluo side) of this build's version, each built by {@code package}
   * (this module's pom names them).
   */
  private static List<Path> libJars() {
    return List.of(jobJar("webindex.job.jar"), jobJar("webindex.fluo.job.jar"));
  }

  private static Path jobJar(String property) {
    Path jar = Paths.get(System.getProperty(property));
    assertTrue(Files.isRegularFile(jar), "no " + jar + " (run after package)");
    return jar;
  }

  @TestFactory
  List<DynamicTest> everyMainClassIsInTheJobJarsAndAcceptsItsArguments() throws IOException {
    List<Path> jars = libJars();
    Map<String, String> values = exampleValues();
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Element> a : actions().entrySet()) {
      if (java(a.getValue()) == null) {
        continue;
      }
      tests.add(
          DynamicTest.dynamicTest(
              a.getKey(), () -> checkJavaAction(a.getKey(), a.getValue(), jars, values)));
    }
    assertTrue(tests.size() >= 4, "recompute, check, reconcile, recheck: " + tests.size());
    return tests;
  }

  private static void checkJavaAction(
      String name, Element action, List<Path> jars, Map<String, String> values) throws Exception {
    Element mainElement = child(java(action), "main-class");
    assertNotNull(mainElement, "action " + name + " has no <main-class>");
    String mainClass = text(mainElement);
    String entry = mainClass.replace('.', '/') + ".class";
    boolean found = false;
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        found |= zip.getEntry(entry) != null;
      }
    }
    assertTrue(found, "action " + name + ": " + entry + " is in none of " + jars);
    // the files the arguments name are shipped with the action (<file>hdfs-path#name</file>)
    Map<String, Path> shipped = new HashMap<>();
    for (Element f : children(java(action), "file")) {
      String file = text(f);
      assertTrue(file.contains("#"), "a <file> with its link name: " + file);
      String link = file.substring(file.indexOf('#') + 1);
      shipped.put(link, localExample(file.substring(0, file.indexOf('#'))));
    }
    List<String> args = new ArrayList<>();
    for (String arg : args(action)) {
      args.add(substitute(arg, values));
    }
    for (String option : List.of("--webindex-conf", "-conf")) {
      int i = args.indexOf(option);
      if (i >= 0) {
        String file = args.get(i + 1);
        assertTrue(
            shipped.containsKey(file), name + ": " + option + " " + file + " is not shipped");
        if (shipped.get(file) != null) {
          args.set(i + 1, shipped.get(file).toString()); // the local example of that file
        }
      }
    }
    assertTrue(shipped.containsKey("accumulo.password"), name + " ships the password file");
    // Hadoop's generic options (-conf, -D, …) as ToolRunner reads them; the rest is the Tool's
    Configuration conf = new Configuration(false);
    String[] toolArgs =
        new GenericOptionsParser(conf, args.toArray(new String[0])).getRemainingArgs();
    conf.get("mapreduce.job.queuename"); // loads the -conf file: it must be a Hadoop configuration
    try (URLClassLoader loader = libLoader(jars)) {
      Class<?> tool = Class.forName(mainClass, true, loader);
      assertEquals(loader, tool.getClassLoader(), mainClass + " comes from the job jars");
      Method main = tool.getMethod("main", String[].class);
      assertTrue(Modifier.isStatic(main.getModifiers()), mainClass + ".main is static");
      Method parseArgs = tool.getMethod("parseArgs", String[].class);
      try {
        parseArgs.invoke(null, (Object) toolArgs);
      } catch (InvocationTargetException e) {
        fail(
            "action "
                + name
                + ": "
                + mainClass
                + " refuses "
                + List.of(toolArgs)
                + ": "
                + e.getCause(),
            e.getCause());
      }
      // and the parser is a real one: it refuses what the Tool refuses
      String[] wrong =
          Stream.concat(Stream.of(toolArgs), Stream.of("--no-such-option")).toArray(String[]::new);
      InvocationTargetException refused =
          assertThrows(
              InvocationTargetException.class, () -> parseArgs.invoke(null, (Object) wrong));
      assertTrue(
          refused.getCause() instanceof IllegalArgumentException,
          mainClass + " refuses with a usage error: " + refused.getCause());
      assertEquals("unknown option --no-such-option", refused.getCause().getMessage());
    }
  }

  /** The file of this repository that a shipped HDFS file is an instance of, if there is one. */
  private static Path localExample(String hdfsPath) {
    if (hdfsPath.equals("${jobConf}")) {
      return oozieDir.resolve("webindex-jobs.xml.example");
    }
    if (hdfsPath.equals("${webindexConf}")) {
      return oozieDir.resolveSibling("conf").resolve("webindex.properties.example");
    }
    return null;
  }

  // ---------------------------------------------------------------- DOM helpers

  private static List<Element> children(Element parent, String localName) {
    List<Element> out = new ArrayList<>();
    if (parent == null) {
      return out;
    }
    for (Node c = parent.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c instanceof Element e && (localName == null || localName.equals(e.getLocalName()))) {
        out.add(e);
      }
    }
    return out;
  }

  private static Element child(Element parent, String localName) {
    List<Element> c = children(parent, localName);
    return c.isEmpty() ? null : c.get(0);
  }

  private static String text(Element e) {
    assertNotNull(e);
    return e.getTextContent().strip();
  }
}
