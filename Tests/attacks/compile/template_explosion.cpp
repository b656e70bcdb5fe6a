// attack: flood the compiler's diagnostics: a type whose name doubles at each of 20 levels, printed in an error
// expect: status in [output_limit, compile_error, time_limit, memory_limit]; compile in [output_limit, compile_error, time_limit, memory_limit]; elapsed_s < 50
template <class A, class B> struct Pair {};
template <int N> struct Explode { using type = Pair<typename Explode<N - 1>::type, typename Explode<N - 1>::type>; };
template <> struct Explode<0> { using type = int; };

int main() {
  Explode<20>::type value = 0;  // no conversion from int: the error names the whole type, a million names long
  return value;
}
