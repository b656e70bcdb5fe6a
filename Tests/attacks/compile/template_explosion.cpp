// attack: a type whose name doubles at each of 40 levels, printed in an error: diagnostics, memory and time explode
// expect: status in [compile_error, time_limit, memory_limit, output_limit]; compile in [compile_error, time_limit, memory_limit, output_limit]; elapsed_s < 50
template <class A, class B> struct Pair {};
template <int N> struct Explode { using type = Pair<typename Explode<N - 1>::type, typename Explode<N - 1>::type>; };
template <> struct Explode<0> { using type = int; };

int main() {
  Explode<40>::type value = 0;  // no conversion from int: the error message names the whole type
  return value;
}
