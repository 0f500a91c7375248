package snippet

import "testing"

// TestMethodName checks which lines declare a function by what it returns
// or by modifiers before its name, and which are statements that look
// alike.
func TestMethodName(t *testing.T) {
	for l, want := range map[string]string{
		"      @Override public TypeName visitError(ErrorType t, Void p) {":                "visitError",
		"  public static <T> List<T> of(Class<T> c) throws IOException {":                  "of",
		"  private final Map<String, List<Integer>> cache(int a, int b) {":                 "cache",
		"void App::parse(std::vector<std::string> &args) const {":                          "parse",
		"static int count(char *s) {":                                                      "count",
		"inline auto write_ostream_unicode(std::ostream& os, fmt::string_view data)":       "write_ostream_unicode",
		"FMT_INLINE std::basic_string<Char> format(const CompiledFormat& cf,":              "format",
		"  public JavaWriter beginType(String type, String kind, Set<Modifier> modifiers)": "beginType",
		"        std::string operator()( const has_maker& ) {":                             "operator",
		"pub(crate) async fn run<T>(x: T) -> Result<(), E> {":                              "run",
		"    fn new() -> Self {":                                                           "new",
		"            fn visit_i128<E>(self, value: i128) -> Result<Value, E>":              "visit_i128",
		"  static async foo(x) {":                                                          "foo",
		"  get name() {":                                                                   "name",
		"#define bump(c) ((c)->n++)":                                                       "bump",
		"#define LIMIT 8":                                                                  "",
		"} else if (x) {":                                                                  "",
		"else if (x) {":                                                                    "",
		"if (x) {":                                                                         "",
		"return foo(x) {":                                                                  "",
		"  return foo(x)":                                                                  "",
		"  puts foo(x)":                                                                    "",
		"  assert foo(x)":                                                                  "",
		"TEST_F(Foo, Bar) {":                                                               "",
		"foo(x);":                                                                          "",
		"  foo(a, b);":                                                                     "",
		"  int x = foo(a,":                                                                 "",
		"Foo x = new Foo() {":                                                              "",
		"std::map<int, std::string> m{":                                                    "",
		"  int x = f(a) {":                                                                 "",
		"  new Thread(() -> {":                                                             "",
		"  } catch (IOException e) {":                                                      "",
		"  for (int i = 0; i < n; i++) {":                                                  "",
		"  while (x) {":                                                                    "",
		"  synchronized (lock) {":                                                          "",
		"  EXPECT_EQ(\"x\", fmt::format(\"{}\",":                                           "",
		"  case 1: foo(a,":                                                                 "",
		"  default: foo(a,":                                                                "",
		"  public void print(PrintStream out) {":                                           "print",
		"  public Builder with(String key, Object value) {":                                "with",
		"  boolean delete(int id) {":                                                       "delete",
		"  constexpr if (x) {":                                                             "",
		"export default connect(state)(View)":                                              "",
	} {
		if got := methodName(l); got != want {
			t.Errorf("methodName(%q) = %q, want %q", l, got, want)
		}
	}
}

// TestDefNameDialect checks that only a language that declares functions
// by what they return reads such a line as a definition.
func TestDefNameDialect(t *testing.T) {
	l := "  emit format(row) {"
	if got := defName(l, dialectOf("java")); got != "format" {
		t.Errorf("java: defName(%q) = %q, want format", l, got)
	}
	for _, ext := range []string{"rb", "py", "sh", "go", "md", ""} {
		if got := defName(l, dialectOf(ext)); got != "" {
			t.Errorf("%s: defName(%q) = %q, want none", ext, l, got)
		}
	}
	if got := defName("def format(row)", dialectOf("rb")); got != "format" {
		t.Errorf("rb: defName(def format(row)) = %q, want format", got)
	}
}

// TestMethodNamePrototypes checks that a declaration without its body is
// no definition (a prototype deleted from a header is what commits do),
// nor a statement of the same shape, and that a value assigned after the
// parentheses makes a line no declaration.
func TestMethodNamePrototypes(t *testing.T) {
	for l, want := range map[string]string{
		"            bool countedNext();":                                  "",
		"    virtual ~Base() = default;":                                   "",
		"  abstract void run(int times) throws IOException;":               "",
		"    std::lock_guard<std::mutex> lock(mutex_);":                    "",
		"    Foo x(a) = new Foo() {":                                       "",
		"    Foo x = make(a);":                                             "",
		"  private int size(int n = 0) {":                                  "size",
		"inline OutputIt vformat_to(OutputIt out, const std::locale& loc,": "vformat_to",
	} {
		if got := methodName(l); got != want {
			t.Errorf("methodName(%q) = %q, want %q", l, got, want)
		}
	}
}
