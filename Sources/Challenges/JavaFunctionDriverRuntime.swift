extension JavaFunctionDriver {
  /// The part of the driver that is the same for every challenge: a small JSON reader, the
  /// conversions of the types, the encoder, the watchdog and the loop over the tests.
  static let runtime = #"""
        static final int LIMIT = 1000000;
        static final Object lock = new Object();
        static FileOutputStream report;
        static String nonce;
        static long current = -1, cpuStart, wallStart, cpuBudget, wallBudget;
        static boolean armed;
        static ThreadClock testClock;

        // The test thread's CPU time, readable from the watchdog: /proc's schedstat (nanoseconds on
        // a CPU) where the box has /proc, else ThreadMXBean, whose module costs every grade about
        // 13 ms of JVM start-up, so it is loaded only then.
        static final class ThreadClock {
            final long threadId = Thread.currentThread().getId();
            final String schedstat;
            final byte[] buffer = new byte[64];

            ThreadClock() {
                String path;
                try {
                    path = new File("/proc/thread-self").getCanonicalPath() + "/schedstat";
                    if (!new File(path).canRead()) path = null;
                } catch (IOException unavailable) {
                    path = null;
                }
                schedstat = path;
            }

            long nanoseconds() {
                if (schedstat != null) {
                    try (FileInputStream in = new FileInputStream(schedstat)) {
                        int length = in.read(buffer);
                        long value = 0;
                        int digits = 0;
                        while (digits < length && buffer[digits] >= '0' && buffer[digits] <= '9') {
                            value = value * 10 + (buffer[digits++] - '0');
                        }
                        if (digits > 0) return value;
                    } catch (IOException unreadable) {
                        // Falls through to the management bean.
                    }
                }
                return Management.threads.getThreadCpuTime(threadId);
            }
        }

        static final class Management {
            static final java.lang.management.ThreadMXBean threads =
                java.lang.management.ManagementFactory.getThreadMXBean();
        }

        static final class Unencodable extends Exception {
            Unencodable(String what) { super(what); }
        }

        static final class Reader {
            final String text;
            int at;
            Reader(String text) { this.text = text; }
            void space() { while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++; }
            Object value() {
                space();
                char c = text.charAt(at);
                if (c == '{') {
                    Map<String, Object> fields = new LinkedHashMap<>();
                    at++;
                    space();
                    if (text.charAt(at) == '}') { at++; return fields; }
                    for (;;) {
                        String key = (String) value();
                        space();
                        at++;
                        fields.put(key, value());
                        space();
                        if (text.charAt(at++) == '}') return fields;
                    }
                }
                if (c == '[') {
                    List<Object> items = new ArrayList<>();
                    at++;
                    space();
                    if (text.charAt(at) == ']') { at++; return items; }
                    for (;;) {
                        items.add(value());
                        space();
                        if (text.charAt(at++) == ']') return items;
                    }
                }
                if (c == '"') {
                    StringBuilder out = new StringBuilder();
                    at++;
                    while (text.charAt(at) != '"') {
                        char d = text.charAt(at++);
                        if (d != '\\') { out.append(d); continue; }
                        char e = text.charAt(at++);
                        switch (e) {
                            case 'n': out.append('\n'); break;
                            case 't': out.append('\t'); break;
                            case 'r': out.append('\r'); break;
                            case 'b': out.append('\b'); break;
                            case 'f': out.append('\f'); break;
                            case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                            default: out.append(e);
                        }
                    }
                    at++;
                    return out.toString();
                }
                if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
                if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
                if (text.startsWith("null", at)) { at += 4; return null; }
                int start = at;
                boolean whole = true;
                while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                    if ("eE.".indexOf(text.charAt(at)) >= 0) whole = false;
                    at++;
                }
                String literal = text.substring(start, at);
                return whole ? (Object) Long.parseLong(literal) : (Object) Double.parseDouble(literal);
            }
        }

        static Class<?> classOf(String type) {
            switch (type) {
                case "int": return long.class;
                case "float": return double.class;
                case "bool": return boolean.class;
                case "string": return String.class;
                case "linked_list": return ListNode.class;
                case "tree": return TreeNode.class;
                case "graph": return List.class;
            }
            return Array.newInstance(classOf(type.substring(0, type.length() - 2)), 0).getClass();
        }

        static Object convert(Object json, String type) {
            switch (type) {
                case "int": return ((Number) json).longValue();
                case "float": return ((Number) json).doubleValue();
                case "bool": case "string": return json;
                case "linked_list": {
                    List<?> values = (List<?>) json;
                    ListNode head = null;
                    for (int i = values.size() - 1; i >= 0; i--) head = new ListNode(((Number) values.get(i)).longValue(), head);
                    return head;
                }
                case "tree": return toTree((List<?>) json);
                case "graph": {
                    Map<?, ?> graph = (Map<?, ?>) json;
                    List<List<Integer>> adjacency = new ArrayList<>();
                    for (long i = 0; i < ((Number) graph.get("n")).longValue(); i++) adjacency.add(new ArrayList<>());
                    for (Object edge : (List<?>) graph.get("edges")) {
                        int u = ((Number) ((List<?>) edge).get(0)).intValue(), v = ((Number) ((List<?>) edge).get(1)).intValue();
                        adjacency.get(u).add(v);
                        if (!Boolean.TRUE.equals(graph.get("directed")) && u != v) adjacency.get(v).add(u);
                    }
                    return adjacency;
                }
            }
            String element = type.substring(0, type.length() - 2);
            List<?> items = (List<?>) json;
            Object array = Array.newInstance(classOf(element), items.size());
            for (int i = 0; i < items.size(); i++) Array.set(array, i, convert(items.get(i), element));
            return array;
        }

        static TreeNode toTree(List<?> values) {
            if (values.isEmpty() || values.get(0) == null) return null;
            TreeNode root = new TreeNode(((Number) values.get(0)).longValue());
            ArrayDeque<TreeNode> queue = new ArrayDeque<>(List.of(root));
            int index = 1;
            while (!queue.isEmpty() && index < values.size()) {
                TreeNode node = queue.poll();
                if (index < values.size() && values.get(index) != null) {
                    node.left = new TreeNode(((Number) values.get(index)).longValue());
                    queue.add(node.left);
                }
                index++;
                if (index < values.size() && values.get(index) != null) {
                    node.right = new TreeNode(((Number) values.get(index)).longValue());
                    queue.add(node.right);
                }
                index++;
            }
            return root;
        }

        static String quote(String text) {
            StringBuilder out = new StringBuilder("\"");
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"') out.append("\\\"");
                else if (c == '\\') out.append("\\\\");
                else if (c == '\n') out.append("\\n");
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.append('"').toString();
        }

        static void encode(Object value, StringBuilder out) throws Unencodable {
            if (value == null) { out.append("null"); return; }
            if (value instanceof Boolean || value instanceof Long || value instanceof Integer || value instanceof Short
                    || value instanceof Byte) { out.append(value); return; }
            if (value instanceof Double || value instanceof Float) {
                double number = ((Number) value).doubleValue();
                if (Double.isNaN(number)) out.append("\"NaN\"");
                else if (Double.isInfinite(number)) out.append(number > 0 ? "\"Infinity\"" : "\"-Infinity\"");
                else out.append(Double.toString(number));
                return;
            }
            if (value instanceof String) { out.append(quote((String) value)); return; }
            if (value instanceof ListNode) {
                out.append('[');
                int count = 0;
                for (ListNode node = (ListNode) value; node != null; node = node.next, count++) {
                    if (count >= LIMIT) throw new Unencodable("linked list of more than a million nodes (a cycle?)");
                    if (count > 0) out.append(',');
                    out.append(node.val);
                }
                out.append(']');
                return;
            }
            if (value instanceof TreeNode) { encodeTree((TreeNode) value, out); return; }
            if (value.getClass().isArray() || value instanceof List) {
                List<?> items = value instanceof List ? (List<?>) value : null;
                int length = items != null ? items.size() : Array.getLength(value);
                out.append('[');
                for (int i = 0; i < length; i++) {
                    if (i > 0) out.append(',');
                    encode(items != null ? items.get(i) : Array.get(value, i), out);
                }
                out.append(']');
                return;
            }
            throw new Unencodable(value.getClass().getSimpleName());
        }

        static void encodeTree(TreeNode root, StringBuilder out) throws Unencodable {
            ArrayList<TreeNode> queue = new ArrayList<>(List.of(root));
            ArrayList<String> values = new ArrayList<>();
            for (int head = 0; head < queue.size(); head++) {
                if (values.size() >= 2 * LIMIT) throw new Unencodable("tree of more than a million nodes (a cycle?)");
                TreeNode node = queue.get(head);
                if (node == null) { values.add("null"); continue; }
                values.add(Long.toString(node.val));
                queue.add(node.left);
                queue.add(node.right);
            }
            while (!values.isEmpty() && values.get(values.size() - 1).equals("null")) values.remove(values.size() - 1);
            out.append('[').append(String.join(",", values)).append(']');
        }

        static void emit(String line) {
            synchronized (lock) {
                try {
                    report.write(("\n" + line + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException error) {
                    Runtime.getRuntime().halt(4);
                }
            }
        }

        static void watch() {
            for (;;) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException error) {
                    return;
                }
                synchronized (lock) {
                    if (!armed) continue;
                    long cpu = testClock.nanoseconds() - cpuStart;
                    long wall = System.nanoTime() - wallStart;
                    String kind = cpu >= cpuBudget ? "cpu" : wall >= wallBudget ? "wall" : null;
                    if (kind == null) continue;
                    emit("@limit " + nonce + " {\"test\":" + current + ",\"kind\":\"" + kind + "\"}");
                    Runtime.getRuntime().halt(3);
                }
            }
        }

        // Cuts the driver's and reflection's frames off a learner's exception: what is left is theirs.
        static void trim(Throwable error) {
            StackTraceElement[] trace = error.getStackTrace();
            int end = 0;
            while (end < trace.length && !trace[end].getClassName().startsWith("jdk.internal.reflect.")
                    && !trace[end].getClassName().startsWith("java.lang.reflect.")) end++;
            error.setStackTrace(Arrays.copyOf(trace, end));
        }

        static Object receiver(Class<?> solution, Method method) throws ReflectiveOperationException {
            if (Modifier.isStatic(method.getModifiers())) return null;
            try {
                return solution.getField("INSTANCE").get(null);
            } catch (NoSuchFieldException notAnObject) {
                Constructor<?> constructor = solution.getDeclaredConstructor();
                constructor.setAccessible(true);
                return constructor.newInstance();
            }
        }

        public static void main(String[] arguments) throws Exception {
            String input = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            int newline = input.indexOf('\n');
            nonce = input.substring(0, newline).trim();
            Map<?, ?> request = (Map<?, ?>) new Reader(input.substring(newline + 1)).value();
            report = new FileOutputStream(FileDescriptor.out);
            // The learner's prints go to stderr; the report is written to stdout by the driver alone.
            PrintStream learner = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
            System.setOut(learner);
            System.setErr(learner);
            Class<?>[] classes = new Class<?>[TYPES.length];
            for (int i = 0; i < TYPES.length; i++) classes[i] = classOf(TYPES[i]);
            Class<?> solution;
            Method method;
            try {
                solution = Class.forName("Solution");
                method = solution.getDeclaredMethod(FUNCTION, classes);
                method.setAccessible(true);
            } catch (ClassNotFoundException | NoSuchMethodException missing) {
                emit("@missing " + nonce);
                return;
            }
            cpuBudget = ((Number) request.get("cpu_ms")).longValue() * 1000000L;
            wallBudget = ((Number) request.get("wall_ms")).longValue() * 1000000L;
            testClock = new ThreadClock();
            // An anonymous class, not a method reference: the JVM's lambda bootstrap costs milliseconds.
            Thread watchdog = new Thread(new Runnable() {
                public void run() { watch(); }
            }, "dsa-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            for (Object item : (List<?>) request.get("tests")) {
                Map<?, ?> test = (Map<?, ?>) item;
                long index = ((Number) test.get("index")).longValue();
                learner.flush();
                learner.print("\n@begin " + nonce + " " + index + "\n");
                learner.flush();
                emit("@begin " + nonce + " " + index);
                List<?> args = (List<?>) test.get("args");
                Object[] values = new Object[TYPES.length];
                for (int i = 0; i < TYPES.length; i++) values[i] = convert(args.get(i), TYPES[i]);
                String fields = null;
                Object value = null;
                synchronized (lock) {
                    current = index;
                    cpuStart = testClock.nanoseconds();
                    wallStart = System.nanoTime();
                    armed = true;
                }
                try {
                    value = method.invoke(receiver(solution, method), values);
                } catch (InvocationTargetException error) {
                    Throwable cause = error.getCause();
                    trim(cause);
                    cause.printStackTrace(learner);
                    fields = ",\"raised\":" + quote(cause.toString());
                } catch (ReflectiveOperationException | IllegalArgumentException error) {
                    fields = ",\"raised\":" + quote("the driver could not call " + SIGNATURE + ": " + error);
                }
                long cpuMs, wallMs;
                synchronized (lock) {
                    armed = false;
                    cpuMs = (testClock.nanoseconds() - cpuStart) / 1000000L;
                    wallMs = (System.nanoTime() - wallStart) / 1000000L;
                }
                learner.flush();
                if (fields == null) {
                    StringBuilder encoded = new StringBuilder();
                    try {
                        if (value == null && (RESULT.equals("linked_list") || RESULT.equals("tree"))) encoded.append("[]");
                        else encode(value, encoded);
                        fields = ",\"value\":" + encoded;
                    } catch (Unencodable error) {
                        fields = ",\"unencodable\":" + quote("a " + error.getMessage());
                    } catch (StackOverflowError error) {
                        fields = ",\"unencodable\":\"a value nested too deeply\"";
                    }
                }
                emit("@result " + nonce + " {\"test\":" + index + ",\"cpu_ms\":" + cpuMs + ",\"wall_ms\":" + wallMs + fields + "}");
            }
            learner.flush();
            emit("@done " + nonce);
        }
    }

    class ListNode {
        public long val;
        public ListNode next;
        public ListNode() {}
        public ListNode(long val) { this.val = val; }
        public ListNode(long val, ListNode next) { this.val = val; this.next = next; }
    }

    class TreeNode {
        public long val;
        public TreeNode left;
        public TreeNode right;
        public TreeNode() {}
        public TreeNode(long val) { this.val = val; }
        public TreeNode(long val, TreeNode left, TreeNode right) { this.val = val; this.left = left; this.right = right; }
    }

    """#
}
