export default '/agent/*'
