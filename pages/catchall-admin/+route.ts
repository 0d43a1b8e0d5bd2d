export default '/admin/*'
