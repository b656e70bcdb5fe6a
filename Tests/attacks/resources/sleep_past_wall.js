// attack: keep the event loop alive far past the wall limit with a long timer
// limits: wall_ms=2000
// expect: status in [time_limit]; elapsed_s < 8
setTimeout(() => console.log('woke'), 600000);
